// Usage: node check-lock.cjs <committed package-lock.json> <package-lock.json after npm install>
// Passes when the install kept every package the committed lockfile pins exactly as pinned
// and added nothing but optional (platform) packages. Used by npm-ci.sh, see there.
'use strict';
const { readFileSync } = require('node:fs');

const [before, after] = process.argv.slice(2).map((file) => JSON.parse(readFileSync(file, 'utf8')).packages ?? {});
if (!before || !after) {
  process.stderr.write('usage: node check-lock.cjs <committed lock> <lock after install>\n');
  process.exit(2);
}

const problems = [];
for (const [path, entry] of Object.entries(before)) {
  if (!(path in after)) problems.push(`removed: ${path || '(root)'}`);
  else if (JSON.stringify(after[path]) !== JSON.stringify(entry)) problems.push(`changed: ${path || '(root)'}`);
}
const added = Object.keys(after).filter((path) => !(path in before));
for (const path of added) {
  const entry = after[path];
  if (!entry.optional && !entry.devOptional) problems.push(`added (not optional): ${path}`);
}

if (problems.length > 0) {
  process.stderr.write(
    `package-lock.json is out of date (${problems.length} difference(s)); run \`npm install\` and commit the lockfile:\n` +
      problems
        .slice(0, 20)
        .map((p) => `  ${p}\n`)
        .join('') +
      (problems.length > 20 ? `  ... and ${problems.length - 20} more\n` : ''),
  );
  process.exit(1);
}
process.stdout.write(`npm-ci: lockfile honoured (${added.length} optional platform package(s) added by npm install)\n`);
