import { runWorker } from '@pod/worker-runtime';
import { MatcherModule } from './matcher.module';

void runWorker({ service: 'matcher', queue: 'matcher', module: MatcherModule });
