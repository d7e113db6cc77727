import 'reflect-metadata';
import { loadConfigOrExit } from '@pod/config';
import { prepareDatabase } from '@pod/db';
import { createGateway } from './app.factory';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  // Creates the database on a first local start and applies migrations once (advisory lock),
  // even when several gateways start together. Workers only wait for the schema.
  await prepareDatabase(config);
  const app = await createGateway(config);
  await app.startAllMicroservices();
  await app.listen({ port: config.PORT, host: '0.0.0.0' });
  // PUBLIC_ORIGIN (default http://localhost:$PORT): where browsers should open the app.
  process.stdout.write(`PodProfit gateway listening on port ${config.PORT}: open ${config.publicOrigin}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`Gateway failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
