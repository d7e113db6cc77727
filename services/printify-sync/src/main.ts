import { runWorker } from '@pod/worker-runtime';
import { PrintifySyncModule } from './printify-sync.module';

void runWorker({ service: 'printify-sync', queue: 'printify-sync', module: PrintifySyncModule });
