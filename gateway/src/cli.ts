import 'reflect-metadata';
import { loadConfigOrExit } from '@pod/config';
import { createDatabaseIfMissing, prepareDatabase } from '@pod/db';

/** One-shot operator commands: `prepare` / `migrate` (create database if missing + migrate), `create-database`. */
async function main(command: string | undefined): Promise<void> {
  const config = loadConfigOrExit();
  const say = (line: string) => process.stdout.write(`${line}\n`);
  if (command === 'create-database') {
    say((await createDatabaseIfMissing(config.DATABASE_URL)) ? 'Database created.' : 'Database exists.');
    return;
  }
  if (command === 'prepare' || command === 'migrate') {
    const { created, applied } = await prepareDatabase(config);
    if (created) say('Database created.');
    say(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Schema is up to date.');
    return;
  }
  throw new Error(`Unknown command "${command ?? ''}". Use: prepare | migrate | create-database`);
}

main(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
