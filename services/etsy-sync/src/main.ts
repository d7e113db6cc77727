import { runWorker } from '@pod/worker-runtime';
import { EtsySyncModule } from './etsy-sync.module';

void runWorker({ service: 'etsy-sync', queue: 'etsy-sync', module: EtsySyncModule });
