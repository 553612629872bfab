import { describe, it, expect } from 'vitest';
import { mapArguments } from '../arguments.js';
import { tool } from './test-tool.js';

describe('mapArguments: numbered parameters, counts, codes and names', () => {
  it('reads a head count for a parameter that counts people', () => {
    const t = tool(
      { city: { type: 'string', description: 'City.' }, number_of_guests: { type: 'integer', description: 'How many guests.' } },
      ['city'],
    );
    expect(mapArguments(t, 'Find a cabin in Denver for five people.').arguments).toEqual({ city: 'Denver', number_of_guests: 5 });
  });
});

describe('mapArguments: children and adults', () => {
  it('counts children for a children parameter and people for the rest', () => {
    const t = tool(
      { adults: { type: 'integer', description: 'Number of adults.' }, children: { type: 'integer', description: 'Number of children.' } },
      ['adults'],
    );
    expect(mapArguments(t, 'a cabin for three adults and two children').arguments).toEqual({ adults: 3, children: 2 });
  });
});

describe('mapArguments: counted items', () => {
  const order = tool(
    {
      store: { type: 'string', description: 'The store or restaurant name.' },
      items: { type: 'array', items: { type: 'string' }, description: 'Items to order.' },
      quantities: { type: 'array', items: { type: 'integer' }, description: 'How many of each item, in the same order.' },
    },
    ['store', 'items', 'quantities'],
  );

  it('takes no head count or length of stay as an item', () => {
    expect(mapArguments(order, 'a table at Nobu for 2 people for 3 nights').missingArguments).toEqual(['items', 'quantities']);
  });
});

describe('mapArguments: counts per unit', () => {
  const bacteria = tool(
    {
      start_population: { type: 'integer', description: 'The starting population of bacteria.' },
      duplication_frequency: { type: 'integer', description: 'The frequency of bacteria duplication per hour.' },
      duration: { type: 'integer', description: 'Total duration in hours.' },
    },
    ['start_population', 'duplication_frequency', 'duration'],
  );

  it('reads no count of the unit a rate divides by as the rate', () => {
    // "for 6 hours" is no rate per hour
    expect(mapArguments(bacteria, 'Start with 5000 bacteria, for 6 hours.').arguments.duplication_frequency).toBeUndefined();
  });
});

describe('mapArguments: numbers with units for strings', () => {
  it('keeps a count of things for a string quantity ("25 shares", "4 guests")', () => {
    const order = tool(
      { symbol: { type: 'string', description: 'The ticker.' }, qty: { type: 'string', description: 'Order quantity.' } },
      ['symbol', 'qty'],
    );
    expect(mapArguments(order, 'Sell qty 25 shares of TSLA').arguments).toEqual({ symbol: 'TSLA', qty: '25' });
  });
});

describe('mapArguments: limits of the rate, area name, country code and title rules', () => {
  it('reads counts per unit only for a frequency, and never from part of a larger number', () => {
    const pay = tool({ hourly_rate: { type: 'number', description: 'Pay per hour' } }, ['hourly_rate']);
    expect(mapArguments(pay, 'Calculate my salary at 12.50 an hour').arguments.hourly_rate).toBe(12.5);
    const salary = tool(
      { amount: { type: 'number', description: 'Salary amount per month' }, months: { type: 'integer', description: 'Number of months' } },
      ['amount', 'months'],
    );
    expect(mapArguments(salary, 'I will be paid 3000 dollars every month for 12 months').arguments).toEqual({ amount: 3000, months: 12 });
    const llm = tool(
      {
        prompt: { type: 'string', description: 'The prompt.' },
        max_tokens: { type: 'integer', description: 'Maximum tokens per response' },
      },
      ['prompt', 'max_tokens'],
    );
    expect(mapArguments(llm, 'Summarize this article and keep each response short').arguments.max_tokens).toBeUndefined();
    const sessions = tool({ sessions_per_week: { type: 'number', description: 'Training sessions per week' } }, ['sessions_per_week']);
    expect(mapArguments(sessions, 'I train 2.5 times a week on average').arguments.sessions_per_week).not.toBe(5);
  });
});

describe('mapArguments: standard decks', () => {
  it('counts the cards of the one rank or suit drawn from a standard deck', () => {
    const prob = tool(
      {
        total_outcomes: { type: 'integer', description: 'Total possible outcomes.' },
        favorable_outcomes: { type: 'integer', description: 'Favorable outcomes.' },
      },
      ['total_outcomes', 'favorable_outcomes'],
    );
    expect(mapArguments(prob, 'chance of drawing a queen from a deck of cards').arguments.favorable_outcomes).toBe(4);
    expect(mapArguments(prob, 'chance of drawing a spade from a deck of 52 cards').arguments).toEqual({
      total_outcomes: 52,
      favorable_outcomes: 13,
    });
    // a deck the request sizes gives its size
    expect(mapArguments(prob, 'chance of drawing an ace from a deck of 32 cards').arguments).toEqual({
      total_outcomes: 32,
      favorable_outcomes: 4,
    });
  });
});

describe('mapArguments: trials and probabilities', () => {
  it('reads tosses as trials and heads as successes, and no probability above 1', () => {
    const binom = tool(
      {
        number_of_trials: { type: 'integer', description: 'The total number of trials.' },
        number_of_successes: { type: 'integer', description: 'The desired number of successful outcomes.' },
        probability_of_success: { type: 'number', description: 'Probability of success on one trial.', default: 0.5 },
      },
      ['number_of_trials', 'number_of_successes'],
    );
    expect(mapArguments(binom, 'the chance of exactly 3 heads in 10 flips of a coin').arguments).toEqual({
      number_of_trials: 10,
      number_of_successes: 3,
    });
    expect(mapArguments(binom, '4 successes in 12 trials with a probability of 0.3').arguments).toEqual({
      number_of_trials: 12,
      number_of_successes: 4,
      probability_of_success: 0.3,
    });
  });
});

describe('mapArguments: limits of the coordinate, example list, country, deck, probability, duration, rating and acronym rules', () => {
  it('counts only a plain rank or suit of a standard deck, and no die with its sides written', () => {
    const prob = tool(
      {
        total_outcomes: { type: 'integer', description: 'Total possible outcomes.' },
        favorable_outcomes: { type: 'integer', description: 'Favorable outcomes.' },
      },
      ['total_outcomes', 'favorable_outcomes'],
    );
    expect(mapArguments(prob, 'chance of drawing a red king from a deck of cards').arguments.favorable_outcomes).toBeUndefined();
    expect(mapArguments(prob, 'chance of drawing an ace or a king from a deck of cards').arguments.favorable_outcomes).toBeUndefined();
    expect(mapArguments(prob, 'chance of drawing The Fool from a tarot deck').arguments.total_outcomes).toBeUndefined();
    const die = tool(
      { sides: { type: 'integer', description: 'Number of sides on the die' }, rolls: { type: 'integer', description: 'Number of rolls' } },
      ['sides', 'rolls'],
    );
    expect(mapArguments(die, 'roll a d20 die three times').arguments.sides).not.toBe(6);
    const pay = tool({ card_type: { type: 'string' }, total_amount: { type: 'number', description: 'Total amount due' } }, [
      'card_type',
      'total_amount',
    ]);
    expect(mapArguments(pay, 'pull up my Visa card and pay the total due').arguments.total_amount).toBeUndefined();
  });

  it('takes no percent for a count, and no probability above 1 by reading order', () => {
    const binom = tool(
      {
        num_trials: { type: 'integer', description: 'Number of trials' },
        num_successes: { type: 'integer', description: 'Number of successes' },
        success_probability: { type: 'number', description: 'Probability of success' },
      },
      ['num_trials', 'num_successes', 'success_probability'],
    );
    const m = mapArguments(binom, 'She makes 70% of free throws. Chance of making 8 of 10 attempts?').arguments;
    expect(m.num_successes).not.toBe(70);
    expect(m.success_probability === undefined || (m.success_probability as number) <= 1).toBe(true);
  });
});

describe('mapArguments: limits of the role, kind, entry fee, party, ride, stay, later date, hour, material and city rules', () => {
  it('reads "for N" as a party only after a thing booked, and a small one', () => {
    const cabin = tool({ location: { type: 'string' }, guests: { type: 'integer', description: 'Number of guests' } }, ['location']);
    expect(mapArguments(cabin, "a cabin in Aspen for New Year's Eve, for 2025.").arguments.guests).toBeUndefined();
    const uber = tool({ destination: { type: 'string' }, passengers: { type: 'integer', description: 'Number of passengers' } }, [
      'destination',
    ]);
    expect(mapArguments(uber, 'an Uber to the airport at 5. Actually, make it for 6.').arguments.passengers).toBeUndefined();
  });
});

describe('mapArguments: labelled ids to the clause end, URL template hosts, country forms, time zones, dates and addresses', () => {
  it('takes no count of the values for a value, and no request that only names the tool and its parameter', () => {
    const sum = tool(
      { a: { type: 'number', description: 'First number' }, b: { type: 'number', description: 'Second number' } },
      ['a', 'b'],
      'Returns the sum of two numbers',
    );
    expect(mapArguments(sum, 'Compute the sum of two numbers a and b; a is 17')).toMatchObject({
      arguments: { a: 17 },
      missingArguments: ['b'],
    });
    expect(mapArguments(sum, 'Sum the 2 numbers 10 and 32').arguments).toEqual({ a: 10, b: 32 });
    const random = tool({ count: { type: 'integer', description: 'Number of random numbers to generate' } }, ['count']);
    expect(mapArguments(random, 'Generate two random numbers').arguments).toEqual({ count: 2 });
    const echo = {
      name: 'echo',
      description: 'Echoes back the input',
      inputSchema: { type: 'object', properties: { message: { type: 'string', description: 'Message to echo' } }, required: ['message'] },
    };
    for (const request of ['Echo back a message', 'Please echo a message for me'])
      expect(mapArguments(echo, request).missingArguments).toEqual(['message']);
    expect(mapArguments(echo, 'Echo back the message hello world').arguments).toEqual({ message: 'hello world' });
    // a one-word tool's name before a short value is its verb; not where a verb follows it ("Echo chambers are …")
    expect(mapArguments(echo, 'echo hi').arguments).toEqual({ message: 'hi' });
    expect(mapArguments(echo, 'Echo chambers are dangerous').arguments).toEqual({ message: 'Echo chambers are dangerous' });
    // a parameter measured in the noun, or named as a count, still takes it; a question is its own value; a phrase of plain words stays
    const loan = tool(
      {
        principal: { type: 'number' },
        rate: { type: 'number', description: 'Annual rate in percent.' },
        terms: { type: 'integer', description: 'Loan term in months.' },
      },
      ['principal', 'rate', 'terms'],
    );
    expect(mapArguments(loan, 'monthly payment for 20000 at 5 percent over 60 terms').arguments).toEqual({
      principal: 20000,
      rate: 5,
      terms: 60,
    });
    const pick = tool(
      { quantity: { type: 'integer', description: 'Quantity of numbers to pick.' }, low: { type: 'integer' }, high: { type: 'integer' } },
      ['quantity'],
    );
    expect(mapArguments(pick, 'pick 2 numbers').arguments.quantity).toBe(2);
    const ask = {
      name: 'ask',
      description: 'Answers questions like weather, news or sports',
      inputSchema: {
        type: 'object',
        properties: { question: { type: 'string', description: 'The question, e.g. about weather or sports' } },
        required: ['question'],
      },
    };
    expect(mapArguments(ask, "What's the weather?").arguments.question).toBe("What's the weather?");
    const sms = tool({ phone: { type: 'string' }, message: { type: 'string', description: 'The text to send.' } }, ['phone', 'message']);
    expect(mapArguments(sms, 'Text 555-1234 with message I am here').arguments.message).toBe('I am here');
  });
});
