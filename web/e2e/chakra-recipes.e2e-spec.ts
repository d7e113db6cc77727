import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultSystem, type SystemContext } from '@chakra-ui/react';

// Our Chakra system registers only the recipes the app uses (theme/system.ts keeps them out
// of the first load). A component whose recipe is missing renders unstyled without a word,
// so this check fails instead: every Chakra component imported under web/src must find its
// recipe in our system whenever Chakra's full theme has one.

const WEB_SRC = resolve(__dirname, '../src');
// Loaded by a computed path: the app's sources type-check under web/tsconfig.json (bundler
// resolution, which knows '@chakra-ui/react/theme'), not under this folder's Node settings.
const SYSTEM_MODULE = join(WEB_SRC, 'theme/system');
let system: SystemContext;
beforeAll(async () => {
  ({ system } = (await import(SYSTEM_MODULE)) as { system: SystemContext });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : /\.tsx?$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Names imported from '@chakra-ui/react' anywhere in web/src (value imports, aliases resolved). */
function importedChakraNames(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(WEB_SRC)) {
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/import\s+(?!type\b)\{([^}]*)\}\s+from\s+'@chakra-ui\/react'/g)) {
      for (const specifier of match[1].split(',')) {
        const name = specifier
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0];
        if (name && !specifier.trim().startsWith('type ')) names.add(name);
      }
    }
  }
  return names;
}

const recipeKey = (component: string) => component.charAt(0).toLowerCase() + component.slice(1);

it('registers the recipe of every Chakra component the app imports', () => {
  const imported = [...importedChakraNames()];
  expect(imported).toEqual(expect.arrayContaining(['Button', 'Card', 'Dialog', 'Toast']));
  const missing = imported
    .map(recipeKey)
    .filter(
      (key) =>
        (defaultSystem.isRecipe(key) && !system.isRecipe(key)) ||
        (defaultSystem.isSlotRecipe(key) && !system.isSlotRecipe(key)),
    );
  expect(missing).toEqual([]);
});

it('would notice a component whose recipe is missing', () => {
  expect(defaultSystem.isSlotRecipe('datePicker')).toBe(true);
  expect(system.isSlotRecipe('datePicker')).toBe(false);
});
