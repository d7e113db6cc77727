// Integration tests start processes and hash passwords on a 2-core CI machine: give each test
// room beyond Jest's 5 s default (a real hang still fails, after 30 s).
jest.setTimeout(30_000);
