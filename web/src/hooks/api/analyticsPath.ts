// The Analytics page's API path, on its own so the load bench asks what the page asks. Only the
// Analytics page's code imports it: it stays out of keys.ts, which every visitor's first load
// carries (the landing budget, ADR 0038).
export const ANALYTICS_PATH = '/api/analytics';
