import { CustomFieldInputSchema, type CustomFieldInput } from '@shared/contract/forms';
import { describe, expect, it } from 'vitest';
import { exportValueTexts, keptValues, parseKeptValues } from './form-export';
import { chosenOptions, responseSummary } from './form-summary';

const field = (input: CustomFieldInput) => CustomFieldInputSchema.parse(input);

// Issue 33 §4: an option that holds ", " itself ("Red, green") used to be kept joined with the
// others, so the summary could not tell "Red, green" from "Red" + "green".
const colours = field({ name: 'Colours', type: 'checkbox', options: ['Red, green', 'Red', 'green', 'Blue'] });
const rating = field({ name: 'Stars', type: 'rating', ratingMax: 5 });
const docs = field({ name: 'Documents', type: 'file', maxFileSizeKb: 10 });

describe('checkbox answers kept as lists', () => {
  it('keeps the chosen options one by one and shows them joined', () => {
    const values = { Colours: ['Red, green', 'Blue'], Stars: '4', Documents: [{ name: 'a, b.pdf', size: 3, type: '' }] };
    const kept = keptValues([colours, rating, docs], values);
    expect(kept).toEqual({ Colours: ['Red, green', 'Blue'], Stars: '4', Documents: ['a, b.pdf'] });
    expect(exportValueTexts([colours, rating, docs], values)).toEqual({ Colours: 'Red, green, Blue', Stars: '4', Documents: 'a, b.pdf' });
    // Through the JSON the server stores, lists come back as lists.
    expect(parseKeptValues(JSON.stringify(kept))).toEqual(kept);
  });

  it('counts an option holding ", " once and never as the options it looks like', () => {
    const summary = responseSummary([colours], [{ Colours: ['Red, green'] }, { Colours: ['Red', 'green'] }, { Colours: ['Red, green', 'Blue'] }, { Colours: [] }]);
    expect(summary.total).toBe(4);
    expect(summary.fields[0]).toMatchObject({
      answered: 3,
      counts: [
        { value: 'Red, green', count: 2 },
        { value: 'Red', count: 1 },
        { value: 'green', count: 1 },
        { value: 'Blue', count: 1 },
      ],
    });
    expect(chosenOptions(colours.type === 'checkbox' ? colours.options : [], ['Red, green'])).toEqual(['Red, green']);
  });

  it('still reads rows kept before lists (one joined text), and ignores other shapes', () => {
    expect(parseKeptValues(JSON.stringify({ Colours: 'Red, Blue', Stars: '5' }))).toEqual({ Colours: 'Red, Blue', Stars: '5' });
    expect(parseKeptValues(JSON.stringify({ Colours: [1, 2], Stars: 5 }))).toEqual({});
    expect(parseKeptValues('not json')).toBeNull();
    expect(parseKeptValues('[]')).toBeNull();
    expect(parseKeptValues(null)).toBeNull();
    const summary = responseSummary([colours, rating], [{ Colours: 'Red, Blue', Stars: '5' }, { Colours: ['Blue'], Stars: '3' }]);
    expect(summary.fields[0]!.counts).toEqual([
      { value: 'Red, green', count: 0 },
      { value: 'Red', count: 1 },
      { value: 'green', count: 0 },
      { value: 'Blue', count: 2 },
    ]);
    expect(summary.fields[1]).toMatchObject({ answered: 2, average: 4, min: 3, max: 5 });
  });
});
