class A { void alpha() {} }
