/**
 * `npm run versions:table`: prints the supported-versions table (Markdown) generated from src/versions.ts;
 * with `--write` it replaces the table between `<!-- versions:begin -->` and `<!-- versions:end -->` in README.md.
 * A unit test (test/unit/knowledge/versions.test.ts) fails when the README's table differs from the generated one.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { REPO_ROOT } from '../src/knowledge/data.js'
import { versionTableMarkdown } from '../src/versions.js'

const table = versionTableMarkdown()
if (!process.argv.includes('--write')) {
  process.stdout.write(`${table}\n`)
} else {
  const file = path.join(REPO_ROOT, 'README.md')
  const readme = readFileSync(file, 'utf8')
  const re = /(<!-- versions:begin -->\n)[\s\S]*?(<!-- versions:end -->)/
  if (!re.test(readme)) {
    process.stderr.write(
      'README.md has no <!-- versions:begin --> … <!-- versions:end --> block; add one where the table belongs\n',
    )
    process.exit(2)
  }
  writeFileSync(
    file,
    readme.replace(re, (_m, a: string, b: string) => `${a}${table}\n${b}`),
  )
  process.stdout.write('README.md version table updated\n')
}
