import { runWorker } from '@pod/worker-runtime';
import { FxRateModule } from './fx-rate.module';

void runWorker({ service: 'fx-rate', queue: 'fx-rate', module: FxRateModule });
