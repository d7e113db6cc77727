import { DashboardQueryDto } from '../dashboard/dto/dashboard-query.dto';

/** The Analytics page's query string: the Dashboard's `days` and `currency`, validated alike. */
export class AnalyticsQueryDto extends DashboardQueryDto {}
