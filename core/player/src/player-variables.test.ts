import { describe, expect, it } from 'vitest';
import { checkedVariables, variablesFromAttribute } from './player-variables.js';

describe("the player's variables", () => {
  it('reads the attribute as JSON, and a blank one as the defaults', () => {
    expect(variablesFromAttribute('{"title":"Hi","size":30}')).toEqual({ title: 'Hi', size: 30 });
    expect(variablesFromAttribute(null)).toBeUndefined();
    expect(variablesFromAttribute('  ')).toBeUndefined();
  });

  it('refuses an attribute that is not JSON with invalid-variables and how to write it', () => {
    expect(() => variablesFromAttribute('{title: Hi}')).toThrow(expect.objectContaining({ code: 'invalid-variables' }));
    expect(() => variablesFromAttribute('{title: Hi}')).toThrow(/write a JSON object like \{"title":"Hi"\}/);
  });

  it('takes an object for the property, and refuses anything else', () => {
    expect(checkedVariables({ title: 'Hi' })).toEqual({ title: 'Hi' });
    expect(checkedVariables(undefined)).toBeUndefined();
    expect(() => checkedVariables(['Hi'] as unknown as Record<string, unknown>)).toThrow(
      expect.objectContaining({ code: 'invalid-variables' }),
    );
  });
});
