// The README's quick start, as a user would paste it: before this project builds, copy the README's dependency block
// (after the "<!-- quickstart-dependencies: ... -->" marker) into pom.xml and its Java block (after
// "<!-- quickstart: ... -->") into src/main/java as QuickStart.java, so that a README snippet that does not resolve or
// does not compile fails `mvn verify`. The summary the README promises in a comment goes to the test's resources.
// `readme` is a script variable set in examples/pom.xml; `basedir` is this project's clone under target/it.

String block(String text, String marker, String language) {
    int at = text.indexOf('<!-- ' + marker + ':')
    if (at < 0) {
        throw new IllegalStateException('README.md has no "<!-- ' + marker + ': ... -->" marker')
    }
    def fenced = text.substring(at) =~ /(?s)\A<!--[^\n]*-->\n```${language}\n(.*?)\n```\n/
    if (!fenced.find()) {
        throw new IllegalStateException('README.md: the "' + marker + '" marker is not followed by a ```' + language
                + ' block')
    }
    return fenced.group(1)
}

String readmeText = new File(readme).getText('UTF-8').replace('\r\n', '\n')

String dependencies = block(readmeText, 'quickstart-dependencies', 'xml')
String placeholder = '<!-- the README quick start\'s dependencies (prebuild.groovy) -->'
def poms = basedir.listFiles().findAll { it.name.endsWith('pom.xml') && it.getText('UTF-8').contains(placeholder) }
if (poms.isEmpty()) {
    throw new IllegalStateException('no pom.xml in ' + basedir + ' holds the placeholder ' + placeholder)
}
poms.each { it.setText(it.getText('UTF-8').replace(placeholder, dependencies), 'UTF-8') }

String quickStart = block(readmeText, 'quickstart', 'java')
File source = new File(basedir, 'src/main/java/com/example/consumer/QuickStart.java')
source.parentFile.mkdirs()
source.setText('package com.example.consumer;\n\n' + quickStart + '\n', 'UTF-8')

def promise = quickStart =~ /response\.summary\(\)\);\s*\/\/ "([^"]+)"/
if (!promise.find()) {
    throw new IllegalStateException('the README quick start has no comment after response.summary() saying what it prints')
}
File promised = new File(basedir, 'src/test/resources/quickstart-summary.txt')
promised.parentFile.mkdirs()
promised.setText(promise.group(1), 'UTF-8')
println 'README quick start: ' + poms*.name + ' and ' + source
return true
