import { describe, it, expect } from 'vitest';
import { mapArguments } from '../arguments.js';
import { now, tool } from './test-tool.js';

describe('mapArguments: numbers', () => {
  it('maps integers written as name=value', () => {
    const t = tool({ a: { type: 'integer' }, b: { type: 'integer' }, c: { type: 'integer' } }, ['a', 'b', 'c']);
    const m = mapArguments(t, 'Find the roots of a quadratic equation with coefficients a=1, b=-3, c=2.');
    expect(m.arguments).toEqual({ a: 1, b: -3, c: 2 });
    expect(m.missingArguments).toEqual([]);
    expect(m.filledRatio).toBe(1);
  });

  it('maps numbers with units, currency and percent by name and unit', () => {
    const t = tool(
      {
        distance: { type: 'number', description: 'Distance in kilometers.' },
        budget: { type: 'number', description: 'Budget in US dollars.' },
        rate: { type: 'number', description: 'Annual interest rate as a decimal.' },
        years: { type: 'integer', description: 'Number of years.' },
      },
      ['distance', 'budget', 'rate', 'years'],
    );
    const m = mapArguments(t, 'I can spend $20 on a 5 km trip; the rate is 3.5% for 4 years.');
    expect(m.arguments).toEqual({ distance: 5, budget: 20, rate: 0.035, years: 4 });
  });

  it('integers in reading order onto positional parameters ("add 17 and 25" onto a, b)', () => {
    const t = tool(
      { a: { type: 'number', description: 'First number' }, b: { type: 'number', description: 'Second number' } },
      ['a', 'b'],
      'Adds two numbers',
    );
    const m = mapArguments(t, 'add 17 and 25');
    expect(m.arguments).toEqual({ a: 17, b: 25 });
    expect(m.missingArguments).toEqual([]);
    // one number for two parameters: the second is missing, not invented
    expect(mapArguments(t, 'add 17').missingArguments).toEqual(['b']);
  });
});

describe('mapArguments: numbered parameters, counts, codes and names', () => {
  it('gives numbered parameters a written series in order, not a number word', () => {
    const t = tool(
      {
        a1: { type: 'integer', description: 'The first value.' },
        a2: { type: 'integer', description: 'The second value.' },
        a3: { type: 'integer', description: 'The third value.' },
      },
      ['a1', 'a2', 'a3'],
    );
    expect(mapArguments(t, 'Sort these three values: 9 apples, 2 apples and 7 apples.').arguments).toEqual({ a1: 9, a2: 2, a3: 7 });
  });
});

describe('mapArguments: units and periods', () => {
  it('reads "100g" as grams, and gives no bare number to a parameter whose values are words', () => {
    const t = tool(
      {
        weight: { type: 'integer', description: 'Weight of the dough in grams.' },
        method: { type: 'string', description: "How to cook it. Can be 'baking', 'frying', 'steaming'." },
      },
      ['weight', 'method'],
    );
    const m = mapArguments(t, 'Cooking time for a method of 250g of dough, steaming it');
    expect(m.arguments).toEqual({ weight: 250, method: 'steaming' });
  });
});

describe('mapArguments: names that hold places and numbers', () => {
  it('keeps a season range out of the name before it ("Serie A 2019-2020")', () => {
    const t = tool(
      {
        league: { type: 'string', description: 'Name of the league.' },
        season: { type: 'string', description: "Season in format 'YYYY-YYYY'." },
      },
      ['league', 'season'],
    );
    expect(mapArguments(t, 'Top scorers of Serie A 2019-2020').arguments).toEqual({ league: 'Serie A', season: '2019-2020' });
  });
});

describe('mapArguments: no value from prose defaults, plain English, regions, adverbs or periods only mentioned', () => {
  it('reads no code from a range in the description ("2 to many")', () => {
    const t = tool({ n: { type: 'integer', description: 'Number of people to invite, 2 to many' } }, ['n']);
    expect(mapArguments(t, 'invite many').arguments).toEqual({});
  });
});

describe('mapArguments: counts of what a parameter counts', () => {
  it('takes the number written before the counted noun, as a word too, and no number before another phrase', () => {
    const t = tool(
      {
        religion: { type: 'string', description: 'Name of the religion.' },
        count: { type: 'integer', default: 5, description: 'Number of events to return. Default is 5.' },
      },
      ['religion'],
    );
    expect(mapArguments(t, 'Find ten major historical events related to Christianity').arguments).toEqual({
      religion: 'Christianity',
      count: 10,
    });
    const g = tool(
      {
        total: { type: 'integer', description: 'The total group size.' },
        extroverts: { type: 'integer', description: 'The number of extroverted members in the group.' },
        introverts: { type: 'integer', description: 'The number of introverted members in the group.' },
      },
      ['total', 'extroverts', 'introverts'],
    );
    expect(mapArguments(g, 'a group size of 50 with extroverted members being 15 and introverted members being 35').arguments).toEqual({
      total: 50,
      extroverts: 15,
      introverts: 35,
    });
  });
});

describe('mapArguments: motion and rates', () => {
  it('takes no exponent of a unit or variable for a value ("m/s^2", "x**2"), but a power of a number and bold numbers', () => {
    const t = tool({ power: { type: 'integer', description: 'The power.' } }, ['power']);
    expect(mapArguments(t, 'accelerating at 9.8 m/s^2').missingArguments).toEqual(['power']);
    expect(mapArguments(t, 'integrate x**2 over the interval').missingArguments).toEqual(['power']);
    const pow = tool({ base: { type: 'integer', description: 'The base.' }, exponent: { type: 'integer', description: 'The exponent.' } }, [
      'base',
      'exponent',
    ]);
    expect(mapArguments(pow, 'Calculate 2^10').arguments).toEqual({ base: 2, exponent: 10 });
    expect(mapArguments(pow, 'compute 3**4').arguments).toEqual({ base: 3, exponent: 4 });
    const table = tool(
      { restaurant: { type: 'string', description: 'The restaurant.' }, party_size: { type: 'integer', description: 'Number of people.' } },
      ['restaurant', 'party_size'],
    );
    expect(mapArguments(table, 'Book a table at **Nobu** for **4** people').arguments.party_size).toBe(4);
    expect(mapArguments(table, 'Book a table at Nobu. **Party size:** 4').arguments.party_size).toBe(4);
  });
});

describe('mapArguments: currency pairs', () => {
  it('converts to the currency written after "to", from the other', () => {
    const t = tool(
      {
        base_currency: { type: 'string', description: 'The currency to convert from.' },
        target_currency: { type: 'string', description: 'The currency to convert to.' },
        amount: { type: 'number', description: 'The amount.' },
      },
      ['base_currency', 'target_currency', 'amount'],
    );
    expect(mapArguments(t, 'Convert 20000 Japanese Yen to US dollars').arguments).toEqual({
      base_currency: 'JPY',
      target_currency: 'USD',
      amount: 20000,
    });
    // a code written after "to" is the target, though an amount is written with it elsewhere
    expect(mapArguments(t, 'Convert my EUR to USD, I need at least 100 USD').arguments).toMatchObject({
      base_currency: 'EUR',
      target_currency: 'USD',
    });
    expect(mapArguments(t, 'Convert euros to dollars: 1 USD = ? and I have 80 euros').arguments).toMatchObject({
      base_currency: 'EUR',
      target_currency: 'USD',
    });
  });
});

describe('mapArguments: sentence breaks, bounds across a comparison, genre words, quotes glued to CJK text', () => {
  it('links a name to its bound across a comparison ("rating higher than 4.1")', () => {
    const homes = tool(
      {
        city: { type: 'string', description: 'City.' },
        rating: { type: 'number', description: 'Minimum review rating from 1.0 to 5.0.', default: 3 },
      },
      ['city'],
    );
    expect(mapArguments(homes, 'A flat in Denver for two nights. rating higher than 4.3?').arguments.rating).toBe(4.3);
    expect(mapArguments(homes, 'A flat in Denver with a rating of at least 4.5').arguments.rating).toBe(4.5);
  });
});

describe('mapArguments: functions of x', () => {
  it('reads functions of x as written, in reading order for numbered parameters, and keeps their numbers', () => {
    const meet = tool(
      {
        function1: { type: 'string', description: 'The first function.' },
        function2: { type: 'string', description: 'The second function.' },
      },
      ['function1', 'function2'],
    );
    expect(mapArguments(meet, 'Where do y=5x-1 and y=x^2+3 cross?').arguments).toEqual({ function1: '5x-1', function2: 'x^2+3' });
    const integral = tool(
      {
        func: { type: 'string', description: 'The function to integrate.' },
        a: { type: 'number', description: 'Lower bound.' },
        b: { type: 'number', description: 'Upper bound.' },
      },
      ['func', 'a', 'b'],
    );
    expect(mapArguments(integral, 'Integrate f(x) = 4x^3 from 2 to 5.').arguments).toEqual({ func: '4x^3', a: 2, b: 5 });
  });

  it('takes no plain number and no lone x for a function', () => {
    const deriv = tool(
      { function: { type: 'string', description: 'The function to differentiate.' }, value: { type: 'number', description: 'The point.' } },
      ['function'],
    );
    expect(mapArguments(deriv, 'the slope at x = 7').arguments.function).toBeUndefined();
  });
});

describe('mapArguments: review scores and areas of another kind', () => {
  const providers = tool({
    avg_rating: { type: 'number', description: 'Average review rating, 1 to 5.' },
    province_name: { type: 'string', description: 'The province.' },
    sub_district_name: { type: 'string', description: 'The sub-district.' },
  });
  it('reads a review score as a rating, across "not less than"', () => {
    expect(mapArguments(providers, 'a cleaner with a review score not less than 4.2').arguments.avg_rating).toBe(4.2);
  });
});

describe('mapArguments: limits of the name, bound, genre, identifier, time, conversion, version, function and topic rules', () => {
  it('takes no bound of the other side for a minimum or maximum', () => {
    const hotels = tool(
      {
        city: { type: 'string' },
        max_price: { type: 'number', description: 'Maximum price per night.' },
        min_rating: { type: 'number', description: 'Minimum rating.' },
      },
      ['city'],
    );
    expect(mapArguments(hotels, 'hotels in Rome with a price over 300').arguments.max_price).toBeUndefined();
    expect(mapArguments(hotels, 'hotels in Rome with a rating lower than 2').arguments.min_rating).toBeUndefined();
    expect(mapArguments(hotels, 'hotels in Rome with a price under 300').arguments.max_price).toBe(300);
  });
});

describe('mapArguments: limits of the coordinate, example list, country, deck, probability, duration, rating and acronym rules', () => {
  it('reads only a review or user score as a rating', () => {
    const loan = tool(
      {
        loan_amount: { type: 'number', description: 'Loan amount in USD' },
        interest_rate: { type: 'number', description: 'Annual interest rate' },
      },
      ['loan_amount'],
    );
    expect(mapArguments(loan, 'I want a $20,000 loan; my credit score is 720').arguments.interest_rate).toBeUndefined();
    const food = tool({ location: { type: 'string' }, min_rating: { type: 'number', description: 'Minimum rating (1-5)' } }, ['location']);
    expect(mapArguments(food, 'Restaurants in Austin with a health inspection score above 90').arguments.min_rating).toBeUndefined();
  });
});

describe('mapArguments: numbers in words, smaller and larger, ends of a stated range', () => {
  it('fills numeric parameters from number words where the digits are too few, the smaller value to the smaller one', () => {
    const mul = tool(
      {
        a: { type: 'integer', description: 'The first integer to multiply. This is the smaller value.' },
        b: { type: 'integer', description: 'The second integer to multiply. This is the larger value.' },
      },
      ['a', 'b'],
    );
    expect(
      mapArguments(mul, 'If each of my three friends gave me 10 euros, how much money do I have?', undefined, { now }).arguments,
    ).toEqual({ a: 3, b: 10 });
    expect(mapArguments(mul, 'multiply 12 by 5', undefined, { now }).arguments).toEqual({ a: 5, b: 12 });
    const plain = tool(
      { a: { type: 'integer', description: 'The first integer.' }, b: { type: 'integer', description: 'The second integer.' } },
      ['a', 'b'],
    );
    expect(mapArguments(plain, 'multiply 12 by 5', undefined, { now }).arguments).toEqual({ a: 12, b: 5 });
  });
});

describe('mapArguments: what the pi, number word, range end, label, stem, ruled-out value, time format and two-part name rules must not take', () => {
  it('multiplies by pi only for an angle in radians, and rounds only that', () => {
    const count = tool({ count: { type: 'integer', description: 'How many members to list.' } }, ['count']);
    expect(mapArguments(count, 'list 30 Pi Kappa Alpha members', undefined, { now }).arguments.count).toBe(30);
    const amount = tool(
      { amount: { type: 'number', description: 'The amount to convert. The result is returned with 2 decimal places.' } },
      ['amount'],
    );
    expect(mapArguments(amount, 'convert 0.0045 BTC to USD', undefined, { now }).arguments.amount).toBe(0.0045);
  });

  it('reads no "one" as a number where the digits are too few', () => {
    const bmi = tool(
      { weight: { type: 'number', description: 'Weight in kg.' }, height: { type: 'number', description: 'Height in m.' } },
      ['weight', 'height'],
    );
    expect(mapArguments(bmi, 'Calculate BMI for one person weighing 70', undefined, { now }).arguments).toEqual({ weight: 70 });
    const mul = tool({ a: { type: 'integer' }, b: { type: 'integer' } }, ['a', 'b']);
    expect(mapArguments(mul, 'multiply 7 with something, no one knows', undefined, { now }).arguments.b).toBeUndefined();
  });

  it('reads no end of a range from a word of it where none is asked for, or a number says how much', () => {
    const light = tool({ brightness: { type: 'integer', description: 'Brightness from 0 to 255.' } }, []);
    expect(mapArguments(light, 'dim the lights, full brightness hurts my eyes', undefined, { now }).arguments.brightness).toBeUndefined();
    expect(mapArguments(light, 'brightness most comfortable for reading', undefined, { now }).arguments.brightness).toBeUndefined();
    const play = tool({ volume: { type: 'integer', description: 'Volume, ranging from 0 to 100.' } }, []);
    expect(mapArguments(play, 'play it at the max volume my neighbour allows, which is 60', undefined, { now }).arguments.volume).not.toBe(
      100,
    );
  });

  it('rules out a value only where the request does', () => {
    const diet = tool({ diet: { type: 'string', enum: ['vegan', 'vegetarian', 'keto', 'none'] } }, []);
    expect(mapArguments(diet, 'I no longer eat meat so vegetarian please', undefined, { now }).arguments.diet).toBe('vegetarian');
    expect(mapArguments(diet, 'I eat nothing other than vegan food', undefined, { now }).arguments.diet).toBe('vegan');
    const services = tool(
      { service_id: { type: 'integer', description: 'Services: 1 for cleaning service, 2 for ironing service, 3 for massage.' } },
      [],
    );
    expect(mapArguments(services, 'I need a cleaning service, not ironing', undefined, { now }).arguments.service_id).toBe(1);
    const lawsuits = tool(
      {
        company: { type: 'string' },
        case_type: { type: 'string', description: "Type of the lawsuit, e.g., 'IPR', 'Patent', 'Commercial', etc." },
      },
      ['company'],
    );
    expect(
      mapArguments(lawsuits, "lawsuits against 'Apple Inc.', commercial lawsuits excluded", undefined, { now }).arguments.case_type,
    ).toBeUndefined();
  });
});

describe('mapArguments: signs and hyphenated numbers in words', () => {
  const sum = tool({ a: { type: 'number', description: 'First number' }, b: { type: 'number', description: 'Second number' } }, ['a', 'b']);
  it('reads "minus 25" after a word and "negative 25" as negative numbers, "100 minus 40" as two numbers', () => {
    expect(mapArguments(sum, 'What is the sum of 17 and minus 25?', undefined, { now }).arguments).toEqual({ a: 17, b: -25 });
    expect(mapArguments(sum, 'the sum of 17 and negative 25', undefined, { now }).arguments).toEqual({ a: 17, b: -25 });
    expect(mapArguments(sum, 'what is 100 minus 40', undefined, { now }).arguments).toEqual({ a: 100, b: 40 });
  });
  it('reads the sign after a word however the number before it is written, and no sign on a count of things', () => {
    const geo = tool({ latitude: { type: 'number', description: 'Latitude' }, longitude: { type: 'number', description: 'Longitude' } }, [
      'latitude',
      'longitude',
    ]);
    expect(mapArguments(geo, 'What is the weather at latitude 40.7, longitude minus 74.0?', undefined, { now }).arguments).toEqual({
      latitude: 40.7,
      longitude: -74,
    });
    expect(mapArguments(sum, 'multiply 6 by minus 3', undefined, { now }).arguments).toEqual({ a: 6, b: -3 });
    expect(mapArguments(sum, 'subtract 5 from minus 10', undefined, { now }).arguments).toEqual({ a: 5, b: -10 });
    expect(mapArguments(sum, '100 kg minus 40 kg', undefined, { now }).arguments).toEqual({ a: 100, b: 40 });
    const reviews = tool({ product_id: { type: 'string' }, limit: { type: 'integer', description: 'How many reviews.' } }, ['product_id']);
    expect(mapArguments(reviews, 'Show me the negative 5 reviews for product B123', undefined, { now }).arguments.limit).toBe(5);
    const temp = tool({ temperature: { type: 'number', description: 'Temperature in degrees Celsius.' } }, ['temperature']);
    expect(mapArguments(temp, 'set it to minus 5 degrees', undefined, { now }).arguments.temperature).toBe(-5);
  });

  it('reads a number written in words with a hyphen as a number, not an identifier', () => {
    expect(mapArguments(sum, 'What is the sum of seventeen and twenty-five?', undefined, { now }).arguments).toEqual({ a: 17, b: 25 });
  });
});

describe('mapArguments: numbers JSON cannot carry', () => {
  // 400 nines: past Number.MAX_VALUE, so Number() reads Infinity, which JSON writes as null
  const HUGE = '9'.repeat(400);

  it('takes no value that overflows to Infinity, as written or after a multiplier, unit or percent', () => {
    const add = tool({ a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b'], 'Adds two numbers');
    const added = mapArguments(add, `add ${HUGE} and 5`);
    expect(Object.values(added.arguments).every(Number.isFinite)).toBe(true);
    expect(added.missingArguments).toEqual(['b']);
    const one = tool({ a: { type: 'number' } }, ['a']);
    expect(mapArguments(one, 'a = 9e307 million').missingArguments).toEqual(['a']);
    const metres = tool({ distance: { type: 'number', description: 'Distance in meters' } }, ['distance']);
    expect(mapArguments(metres, 'a distance of 1.7e308 km').missingArguments).toEqual(['distance']);
    const rate = tool({ pct: { type: 'number', description: 'rate as a decimal' } }, ['pct']);
    expect(mapArguments(rate, `rate ${HUGE}%`).missingArguments).toEqual(['pct']);
    const nums = tool({ nums: { type: 'array', items: { type: 'number' } } }, ['nums']);
    // (not [2, 3]: the list the request writes has three numbers)
    expect(mapArguments(nums, `sum the numbers ${HUGE}, 2 and 3`).missingArguments).toEqual(['nums']);
  });
});
