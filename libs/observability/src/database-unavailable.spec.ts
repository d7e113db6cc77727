import { isDatabaseUnavailable } from './database-errors';

/** What pg, pg-pool and TypeORM actually throw when PostgreSQL cannot take the work (shapes from their sources). */
describe('isDatabaseUnavailable', () => {
  const pgError = (code: string, message = 'x', severity = 'ERROR') =>
    Object.assign(new Error(message), { code, severity });

  it.each([
    ['the pool wait ran out', new Error('timeout exceeded when trying to connect')],
    ['the connection dropped', new Error('Connection terminated unexpectedly')],
    ['the server refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['too many connections', pgError('53300', 'sorry, too many clients already')],
    ['the server shutting down', pgError('57P01', 'terminating connection due to administrator command', 'FATAL')],
    [
      'the database refusing connections',
      pgError('55000', 'database "x" is not currently accepting connections', 'FATAL'),
    ],
    ['the server starting', pgError('57P03', 'the database system is starting up', 'FATAL')],
    ['a connection exception', pgError('08006')],
    ['statement_timeout under load', pgError('57014', 'canceling statement due to statement timeout')],
    [
      "TypeORM's QueryFailedError around a dropped connection",
      Object.assign(new Error('Connection terminated'), {
        name: 'QueryFailedError',
        driverError: new Error('Connection terminated'),
      }),
    ],
  ])('%s: busy', (_label, error) => expect(isDatabaseUnavailable(error)).toBe(true));

  it.each([
    ['a bad uuid', pgError('22P02', 'invalid input syntax for type uuid: "x"')],
    ['a unique violation', pgError('23505')],
    [
      '55000 in a statement (not at connect)',
      pgError('55000', 'currval of sequence "s" is not yet defined in this session'),
    ],
    ['a lock timeout (answered 409 by its route)', pgError('55P03')],
    ['a programming error', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a string', 'timeout exceeded when trying to connect'],
    ['nothing', undefined],
  ])('%s: not busy', (_label, error) => expect(isDatabaseUnavailable(error)).toBe(false));
});
