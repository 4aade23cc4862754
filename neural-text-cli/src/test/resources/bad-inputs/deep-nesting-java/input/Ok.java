class Ok { int okMethod() { return 1; } }
