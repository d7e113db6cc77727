import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MatchingPageController } from './matching-page.controller';
import { MatchingPageService } from './matching-page.service';

/** The Order Matching page's read API (GET /api/matching/orders). */
@Module({
  imports: [AuthModule],
  controllers: [MatchingPageController],
  providers: [MatchingPageService],
})
export class MatchingPageModule {}
