// Shared by the adapter consumers' postbuild.groovy (the invoker's post-build hook), which set `required` and `forbidden` (lists of regular expressions
// over groupId:artifactId) and `basedir`. Reads target/dependency-list.txt, written by `dependency:list`
// (runtime scope: what the user's application gets), and fails the build naming every offending artifact.
def listing = new File(basedir, 'target/dependency-list.txt')
assert listing.isFile() : "dependency:list wrote no ${listing}"
def artifacts = listing.readLines()*.trim().findAll { it ==~ /[\w.\-]+:[\w.\-]+:[\w.\-]+:.+/ }
        .collect { def p = it.split(':'); "${p[0]}:${p[1]}".toString() }
assert !artifacts.isEmpty() : "no artifact found in ${listing}:\n${listing.text}"
println "runtime dependencies of ${basedir.name}: ${artifacts.size()}"
artifacts.each { println "  ${it}" }
def missing = required.findAll { pattern -> !artifacts.any { it ==~ pattern } }
assert missing.isEmpty() : "expected on the runtime class path: ${missing}"
def offending = artifacts.findAll { a -> forbidden.any { a ==~ it } }
assert offending.isEmpty() : "must not reach a user of ${basedir.name}: ${offending}"
return true
