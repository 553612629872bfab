import { describe, expect, it } from 'vitest';
import { ToolIndex } from './tool-index.js';
import { asksForPlaces, impliedToolWords } from './value-types.js';

describe('asksForPlaces: places to find on a map (place-cues.ts)', () => {
  it('reads places to find on a map (a distance around a place, a route between places, a trip to plan)', () => {
    for (const q of [
      "I'm planning a trip to the Forbidden City in Beijing, show me where to park and what's interesting to do within 1km distance?",
      'Find the nearest parking lot within 2 miles of Central Park',
      'Find coffee shops within 500 m of Alexanderplatz',
      'Focus on a 1000-meter radius to assess the quality of life',
      'Plan a bike route from UCAS Zhongguancun Campus to UCAS Yanqihu Campus',
      'find a restaurant nearby for lunch and tell me how to get there',
      'Get directions from Sydney to Melbourne',
      'directions to the Golden Gate Bridge from Union Square',
      'How to get to Union Square?',
      'run a detailed commute analysis for me',
      'Estimate my commute time from Brooklyn to Midtown',
      'Help me arrange a three-day trip from Beijing to Tianjin tomorrow',
      'Give me a two-day tour of Beijing based on the recent weather',
      'Can you help me plan my upcoming trip?',
      // harder phrasings: a way to get somewhere, a rated star, a distance that ends the request
      'how do I get to the Louvre from my hotel?',
      'How can I get to Shibuya station?',
      "What's the best way to get to the airport from downtown?",
      'Find 5-star hotels within 1 km of the Eiffel Tower',
      'Find coffee within 500 m of Columbus Circle',
      'Find the nearest bank branch within 2 km of Union Square',
      'Find hotels near Times Square within 2 miles',
      // more of the same, and a trip or route to plan
      'how can i get to the train station from here',
      'What is the easiest way to get to the Acropolis?',
      'Find sushi restaurants within 2 km.',
      'Find the nearest TD Bank branch within 2 miles',
      'Plan a 5-day trip to learn surfing in Portugal',
      'Plan an express route from Heathrow to Paddington',
    ])
      expect(asksForPlaces(q), q).toBe(true);
    for (const q of [
      'Calculate the area of a circle with a radius of 5 meters',
      'the magnetic field at the center of a circular loop with a 4 m radius',
      'Calculate the final velocity of an object falling from a 150 meter building',
      'Finish the report within 30 days',
      'What is the route of the parade?',
      'Set the sort direction to ascending',
      'Book a trip to Paris',
      'Find a nearby restaurant that serves vegan food',
      'Ship it to 123 Main Street, Springfield',
      // near misses: steps, graphs, networks, games, bodies, minutes, photos, a band
      'Give me directions to install the package',
      'Give me directions to bake a chocolate cake',
      'the shortest route from node A to node B in the graph',
      'Trace the route from my laptop to google.com',
      'Add a static route from 10.0.0.0/24 to the gateway 192.168.1.1',
      'how to get to level 5 in the game',
      'how to get to inbox zero',
      'Calculate the electric field within 2 m of a point charge',
      'Find the gravitational force on a satellite within 100 km of the surface',
      'Is the sphere within 2 m of the wall?',
      'Retry the job within 10 m',
      'Find all commits within 2 m of the release tag',
      'Organize my trip photos into albums',
      'Summarize the PDF of our two-day trip report',
      'Find luggage for a two-day trip',
      'Plan the tour schedule for the band',
      'Plan a tour for my band across Europe next summer',
      'Play a podcast for my commute',
      'Does matrix multiplication commute?',
      'translate the directions to French',
      'Add a Rails route from /users to the UsersController',
      'Plan a 3-day itinerary for learning Rust',
      'How do I get to the point faster in meetings?',
      'the route from the main branch to the release branch',
      'Calculate the area of a circle within 2 m of a wall',
      'Is the star within 5 km of the probe?',
      'How do I get to the next step in the tutorial?',
      'What is the best way to get to a senior engineer role?',
      'The probe must land within 5 km.',
      'Compute the Magnetic Field within 0.5 m of the Current Loop',
      'Show the route from the local branch to upstream',
      'Add an Express route from /users to the users controller',
      'within 1' + ' '.repeat(20_000) + 'x',
    ])
      expect(asksForPlaces(q), q.slice(0, 80)).toBe(false);
    // the place words are read apart, at their own weight (ToolIndexOptions.placeWordWeight)
    expect(impliedToolWords('Plan a bike route from UCAS Zhongguancun Campus to UCAS Yanqihu Campus')).toEqual([]);
  });

  it('lifts geocoding into the first hits of a map task without taking the first place from the tool a request names', () => {
    const tool = (name: string, description: string, properties: Record<string, unknown>) => ({
      name,
      description,
      inputSchema: { type: 'object', properties },
    });
    const tools = [
      tool('maps:geocode_address', 'Convert an address or place name into geographic coordinates (latitude and longitude).', {
        address: { type: 'string', description: 'The address or place to geocode' },
      }),
      tool('maps:reverse_geocode', 'Convert geographic coordinates into a human-readable address.', {
        latitude: { type: 'number' },
        longitude: { type: 'number' },
      }),
      tool('maps:find_nearby_places', 'Find places of a type near a location given by its coordinates.', {
        latitude: { type: 'number' },
        longitude: { type: 'number' },
        type: { type: 'string', description: 'Place type, e.g. cafe' },
        radius: { type: 'number' },
      }),
      tool('maps:get_route_directions', 'Get turn-by-turn directions and travel time between an origin and a destination.', {
        origin: { type: 'string' },
        destination: { type: 'string' },
        mode: { type: 'string', enum: ['driving', 'walking', 'bicycling', 'transit'] },
      }),
      tool('weather:get_forecast', 'Get the weather forecast for a city for the coming days.', {
        city: { type: 'string' },
        days: { type: 'integer' },
      }),
      tool('travel:search_hotels', 'Search hotels in a city for given dates.', {
        city: { type: 'string' },
        check_in: { type: 'string' },
        nights: { type: 'integer' },
      }),
      tool('travel:search_trains', 'Search train tickets between two stations on a date.', {
        from_station: { type: 'string' },
        to_station: { type: 'string' },
        date: { type: 'string' },
      }),
      tool('calendar:create_event', 'Create a calendar event with a title, start and end time.', {
        title: { type: 'string' },
        start: { type: 'string' },
        end: { type: 'string' },
      }),
      tool('fs:write_file', 'Write text to a file at a path.', { path: { type: 'string' }, content: { type: 'string' } }),
      tool('search:web_search', 'Search the web and return result titles, links and snippets.', { query: { type: 'string' } }),
    ];
    const names = (index: ToolIndex, q: string): string[] => index.search(q, 10).map((h) => h.name);
    const on = ToolIndex.build(tools);
    const off = ToolIndex.build(tools, { placeWordWeight: 0 });
    const task =
      "I'm planning a trip to the Forbidden City in Beijing, show me where to park and what's interesting to do within 1km distance?";
    expect(names(off, task).slice(0, 3)).not.toContain('maps:geocode_address');
    expect(names(on, task).slice(0, 3)).toContain('maps:geocode_address');
    const route = 'Get walking directions from Union Square to the Golden Gate Bridge';
    expect(names(on, route)[0]).toBe('maps:get_route_directions');
    expect(names(on, route).slice(0, 3)).toContain('maps:geocode_address');
  });
});
