import { describe, it, expect } from 'vitest';
import { mapArguments } from '../arguments.js';
import { tool } from './test-tool.js';

describe('mapArguments: units and periods', () => {
  it("turns one period written without a number into the parameter's unit of time, but not a rate", () => {
    const days = tool(
      { city: { type: 'string', description: 'City.' }, days: { type: 'integer', description: 'Number of days of forecast.' } },
      ['city', 'days'],
    );
    expect(mapArguments(days, 'Pollen forecast for Denver for the next week').arguments).toEqual({ city: 'Denver', days: 7 });
    const secs = tool({ window: { type: 'integer', description: 'Length of the window in seconds.' } }, ['window']);
    expect(mapArguments(secs, 'errors logged in the past hour').arguments).toEqual({ window: 3600 });
    // "3 runs every week" is a rate: no period value
    const rate = tool(
      { runs: { type: 'integer', description: 'Runs per week.' }, span: { type: 'integer', description: 'Span in days.' } },
      ['runs'],
    );
    expect(mapArguments(rate, 'I do 3 runs every week').arguments).toEqual({ runs: 3 });
  });
});

describe('mapArguments: SI prefixes and rates', () => {
  it('converts an SI-prefixed unit into the base unit the description asks for, and only then', () => {
    const base = tool(
      {
        capacitance: { type: 'number', description: 'Capacitance in farads (F).' },
        length: { type: 'number', description: 'Cable length in meters.' },
      },
      ['capacitance', 'length'],
    );
    expect(mapArguments(base, 'a capacitance of 470nF on a cable length of 2km').arguments).toEqual({ capacitance: 4.7e-7, length: 2000 });
    const prefixed = tool({ length: { type: 'number', description: 'Cable length in kilometers.' } }, ['length']);
    expect(mapArguments(prefixed, 'a cable length of 2km').arguments).toEqual({ length: 2 });
  });
});

describe('mapArguments: motion and rates', () => {
  const velocity = { type: 'integer', description: 'The initial velocity of the object in meters/second.' };
  const time = { type: 'integer', description: 'The time over which the acceleration is applied in seconds.' };
  const motion = tool(
    {
      initial_velocity: velocity,
      acceleration: { type: 'number', description: 'The acceleration of the object in meters/second^2.' },
      time,
    },
    ['initial_velocity', 'acceleration', 'time'],
  );

  it('reads no start at rest from a body that ends at rest, or one dropped or released at a written speed', () => {
    const kin = tool(
      {
        initial_velocity: { type: 'number', description: 'Initial velocity in m/s.' },
        acceleration: { type: 'number', description: 'Acceleration in m/s^2.' },
        time: { type: 'number', description: 'Time in seconds.' },
      },
      ['initial_velocity', 'acceleration', 'time'],
    );
    expect(
      mapArguments(kin, 'A car traveling at 20 m/s brakes with an acceleration of -4 m/s^2 for 5 seconds until it is at rest.').arguments
        .initial_velocity,
    ).toBe(20);
    expect(mapArguments(kin, 'An arrow is released at 60 m/s and slows at -2 m/s^2. Where is it after 3 seconds?').arguments).toEqual({
      initial_velocity: 60,
      acceleration: -2,
      time: 3,
    });
    expect(
      mapArguments(kin, 'A sandbag is dropped from a balloon rising at 5 m/s; gravity is 9.8 m/s^2, for 4 seconds.').arguments
        .initial_velocity,
    ).toBe(5);
  });

  it("reads no time as a velocity measured in meters/second (a rate's denominator is no unit of its value)", () => {
    expect(
      mapArguments(motion, 'after accelerating at 2 meters/second^2 for a duration of 5 seconds, starting from a speed of 10 meters/second')
        .arguments,
    ).toEqual({ initial_velocity: 10, acceleration: 2, time: 5 });
    const t = tool({ initial_velocity: velocity, time }, ['initial_velocity', 'time']);
    expect(mapArguments(t, 'For 5 seconds it speeds up, starting from a speed of 10 meters/second').arguments).toEqual({
      initial_velocity: 10,
      time: 5,
    });
  });
});

describe('mapArguments: counts per unit', () => {
  it('fills no optional rate from an adverb about something else', () => {
    const t = tool(
      {
        distance: { type: 'integer', description: 'The distance travelled in miles.' },
        efficiency_reduction: { type: 'number', description: 'The percentage decrease in fuel efficiency per year (optional).' },
      },
      ['distance'],
    );
    expect(mapArguments(t, 'How much CO2 is produced annually by a car that travels 12,000 miles?').arguments).toEqual({ distance: 12000 });
  });
});

describe('mapArguments: conversions', () => {
  const convert = tool(
    {
      quantity: { type: 'number', description: 'The amount to convert.' },
      from_unit: { type: 'string', description: 'The unit to convert from.' },
      to_unit: { type: 'string', description: 'The unit to convert to.' },
      item: { type: 'string', description: 'The ingredient being converted.' },
    },
    ['quantity', 'from_unit', 'to_unit', 'item'],
  );

  it('reads the units of a conversion by their roles, in the singular', () => {
    expect(mapArguments(convert, 'How many grams in 3 cups of flour?').arguments).toEqual({
      quantity: 3,
      from_unit: 'cup',
      to_unit: 'gram',
      item: 'flour',
    });
    expect(mapArguments(convert, 'convert 2 tablespoons of brown sugar into teaspoons').arguments).toEqual({
      quantity: 2,
      from_unit: 'tablespoon',
      to_unit: 'teaspoon',
      item: 'brown sugar',
    });
  });

  it('takes no unit where a role is written twice, and no measured thing where two are', () => {
    const m = mapArguments(convert, 'How many grams in 3 cups of flour and 2 cups of sugar?');
    expect(m.arguments.from_unit).toBeUndefined();
    expect(m.arguments.item).toBeUndefined();
  });
});

describe('mapArguments: units are no names', () => {
  it('takes no unit of measure for a parameter that holds no unit', () => {
    const emissions = tool(
      {
        distance: { type: 'integer', description: 'Miles per year.' },
        fuel_type: { type: 'string', description: 'Type of fuel.' },
        fuel_efficiency: { type: 'integer', description: 'Miles per gallon.' },
      },
      ['distance', 'fuel_type'],
    );
    expect(mapArguments(emissions, 'CO2 of a diesel car doing 9,000 miles a year at 30 MPG').arguments.fuel_type).not.toBe('MPG');
  });
});

describe('mapArguments: durations in the unit asked for', () => {
  it('converts a duration to the one unit of time the description asks for', () => {
    const mix = tool({ track_length: { type: 'integer', description: 'Length of the track in seconds.' } }, ['track_length']);
    expect(mapArguments(mix, 'make a mix 4 minutes long').arguments.track_length).toBe(240);
    const wait = tool({ timeout: { type: 'number', description: 'Timeout (in minutes).' } }, ['timeout']);
    expect(mapArguments(wait, 'give up after 90 seconds').arguments.timeout).toBe(1.5);
    // a duration in the unit asked for, or a description naming no unit, keeps the number
    const plain = tool({ duration: { type: 'integer', description: 'How long.' } }, ['duration']);
    expect(mapArguments(plain, 'for 3 hours').arguments.duration).toBe(3);
  });
});

describe('mapArguments: limits of the name, bound, genre, identifier, time, conversion, version, function and topic rules', () => {
  it('converts only between units of one kind, and drops how the thing is prepared', () => {
    const convert = tool(
      {
        quantity: { type: 'number' },
        from_unit: { type: 'string' },
        to_unit: { type: 'string' },
        ingredient: { type: 'string', description: 'The ingredient.' },
      },
      ['quantity', 'from_unit', 'to_unit', 'ingredient'],
    );
    expect(mapArguments(convert, 'How many joules are in 2 cups of milk?').arguments.from_unit).toBeUndefined();
    expect(mapArguments(convert, 'How many grams is 2 cups of chopped fresh parsley?').arguments.ingredient).toBe('parsley');
  });
});

describe('mapArguments: format slips and kinds', () => {
  it('gives a kind without the participle of what powers it, and no name from the unit of a temperature', () => {
    const car = tool({ vehicle_type: { type: 'string', description: 'Type of vehicle fuel.' }, miles: { type: 'integer' } }, [
      'vehicle_type',
      'miles',
    ]);
    expect(mapArguments(car, 'footprint of a diesel-powered vehicle over 900 miles').arguments.vehicle_type).toBe('diesel');
    const entropy = tool({ substance: { type: 'string', description: 'The substance.' }, temperature: { type: 'number' } }, ['substance']);
    expect(mapArguments(entropy, 'entropy change at 25°C please').arguments.substance).not.toBe('C');
  });
});
