import { jsonShapeProblem } from './security';

const limits = { maxDepth: 4, maxFields: 5 };

describe('jsonShapeProblem', () => {
  it.each([
    ['{}', null],
    ['{"a":1,"b":2,"c":3,"d":4,"e":5}', null],
    ['{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}', 'fields'],
    ['[1,2,3,4,5]', null],
    ['[1,2,3,4,5,6]', 'fields'],
    ['[ ]', null],
    ['{"a":[1,2],"b":{"c":3}}', null],
    ['{"a":[1,2,3],"b":{"c":3}}', 'fields'],
    ['[[[[1]]]]', null],
    ['[[[[[1]]]]]', 'depth'],
    // Brackets, colons and commas inside strings are text, escaped quotes included.
    ['{"a":"[[[[[,:,:,:,:,:,"}', null],
    ['{"a":"\\"[[[[[[,:,:,:,:"}', null],
  ])('%s → %s', (text, problem) => {
    expect(jsonShapeProblem(text, limits)).toBe(problem);
  });

  it('stops at the bound: 80,000 keys cost one short scan', () => {
    const text = `{${Array.from({ length: 80_000 }, (_, i) => `"k${i}":1`).join(',')}}`;
    expect(jsonShapeProblem(text, { maxDepth: 32, maxFields: 64 })).toBe('fields');
  });
});
