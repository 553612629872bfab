// A 49-tool catalog shaped like real MCP servers (filesystem, git, browser, maps, weather, calendar,
// calculator, graph, search, travel, slack, gmail, shopping, spotify, network, monitoring, recipes,
// concerts, expenses), on which place-words-probe.ts measures the map cues.
const obj = (props: Record<string, [string, string]>, required: string[] = []) => ({
  type: 'object',
  properties: Object.fromEntries(Object.entries(props).map(([k, [t, d]]) => [k, { type: t, description: d }])),
  required,
});
export const catalog = [
  // filesystem
  {
    name: 'filesystem.read_file',
    description: 'Read the complete contents of a file from the file system.',
    inputSchema: obj({ path: ['string', 'Path of the file'] }, ['path']),
  },
  {
    name: 'filesystem.write_file',
    description: 'Create a new file or overwrite an existing file with new content.',
    inputSchema: obj({ path: ['string', 'Path'], content: ['string', 'Content'] }, ['path', 'content']),
  },
  {
    name: 'filesystem.list_directory',
    description: 'Get a detailed listing of all files and directories in a specified path.',
    inputSchema: obj({ path: ['string', 'Directory path'] }, ['path']),
  },
  {
    name: 'filesystem.move_file',
    description: 'Move or rename files and directories from a source to a destination.',
    inputSchema: obj({ source: ['string', 'Source path'], destination: ['string', 'Destination path'] }, ['source', 'destination']),
  },
  {
    name: 'filesystem.search_files',
    description: 'Recursively search for files and directories matching a pattern.',
    inputSchema: obj({ path: ['string', 'Start path'], pattern: ['string', 'Glob pattern'] }, ['path', 'pattern']),
  },
  // git
  {
    name: 'git.git_log',
    description: 'Shows the commit logs of the repository.',
    inputSchema: obj({ repo_path: ['string', 'Repository path'], max_count: ['integer', 'Max commits'] }, ['repo_path']),
  },
  {
    name: 'git.git_checkout',
    description: 'Switches branches or restores a previous commit.',
    inputSchema: obj({ repo_path: ['string', 'Repository path'], branch_name: ['string', 'Branch or commit'] }, [
      'repo_path',
      'branch_name',
    ]),
  },
  {
    name: 'git.git_diff',
    description: 'Shows differences between branches or commits.',
    inputSchema: obj({ repo_path: ['string', 'Repository path'], target: ['string', 'Target'] }, ['repo_path', 'target']),
  },
  {
    name: 'git.git_commit',
    description: 'Records changes to the repository with a commit message.',
    inputSchema: obj({ repo_path: ['string', 'Repository path'], message: ['string', 'Message'] }, ['repo_path', 'message']),
  },
  // browser
  {
    name: 'playwright.browser_navigate',
    description: 'Navigate the browser to a URL.',
    inputSchema: obj({ url: ['string', 'The URL to navigate to'] }, ['url']),
  },
  {
    name: 'playwright.browser_click',
    description: 'Perform a click on an element of the web page.',
    inputSchema: obj({ element: ['string', 'Element description'], ref: ['string', 'Element reference'] }, ['element', 'ref']),
  },
  { name: 'playwright.browser_snapshot', description: 'Capture an accessibility snapshot of the current page.', inputSchema: obj({}) },
  {
    name: 'playwright.browser_take_screenshot',
    description: 'Take a screenshot of the current page.',
    inputSchema: obj({ filename: ['string', 'File name'] }),
  },
  // maps
  {
    name: 'maps.geocode_address',
    description: 'Convert an address or place name into geographic coordinates (latitude and longitude).',
    inputSchema: obj({ address: ['string', 'The address or place name to geocode'] }, ['address']),
  },
  {
    name: 'maps.reverse_geocode',
    description: 'Convert latitude and longitude coordinates into a human-readable address.',
    inputSchema: obj({ latitude: ['number', 'Latitude'], longitude: ['number', 'Longitude'] }, ['latitude', 'longitude']),
  },
  {
    name: 'maps.find_nearby_places',
    description: 'Search for places such as restaurants, cafes, parking or hotels near a location within a radius.',
    inputSchema: obj(
      {
        location: ['string', 'Center as "lat,lng"'],
        radius: ['number', 'Search radius in meters'],
        keyword: ['string', 'What to look for'],
      },
      ['location'],
    ),
  },
  {
    name: 'maps.get_route_directions',
    description: 'Get driving, walking, cycling or transit directions between an origin and a destination.',
    inputSchema: obj(
      {
        origin: ['string', 'Start address or coordinates'],
        destination: ['string', 'End address or coordinates'],
        mode: ['string', 'driving, walking, bicycling or transit'],
      },
      ['origin', 'destination'],
    ),
  },
  {
    name: 'maps.distance_matrix',
    description: 'Calculate travel distance and time for multiple origins and destinations.',
    inputSchema: obj({ origins: ['array', 'Origins'], destinations: ['array', 'Destinations'] }, ['origins', 'destinations']),
  },
  {
    name: 'maps.place_details',
    description: 'Get detailed information about a specific place: opening hours, rating, phone number.',
    inputSchema: obj({ place_id: ['string', 'Place id'] }, ['place_id']),
  },
  // weather
  {
    name: 'weather.get_forecast',
    description: 'Get the weather forecast for a city for the next days.',
    inputSchema: obj({ city: ['string', 'City name'], days: ['integer', 'Number of days'] }, ['city']),
  },
  {
    name: 'weather.get_current_weather',
    description: 'Get the current weather conditions: temperature, wind, humidity.',
    inputSchema: obj({ city: ['string', 'City name'] }, ['city']),
  },
  {
    name: 'weather.get_alerts',
    description: 'Get active weather alerts for a US state.',
    inputSchema: obj({ state: ['string', 'Two-letter state code'] }, ['state']),
  },
  // calendar
  {
    name: 'calendar.create_event',
    description: 'Create a calendar event with a title, start and end time, and attendees.',
    inputSchema: obj(
      { title: ['string', 'Title'], start: ['string', 'Start time'], end: ['string', 'End time'], attendees: ['array', 'Attendee emails'] },
      ['title', 'start'],
    ),
  },
  {
    name: 'calendar.list_events',
    description: 'List upcoming calendar events in a time range.',
    inputSchema: obj({ time_min: ['string', 'From'], time_max: ['string', 'To'] }),
  },
  {
    name: 'calendar.find_free_time',
    description: 'Find free time slots for a meeting among attendees.',
    inputSchema: obj({ attendees: ['array', 'Emails'], duration_minutes: ['integer', 'Duration'] }, ['attendees']),
  },
  // calculator
  {
    name: 'calculator.evaluate',
    description: 'Evaluate a mathematical expression and return the result.',
    inputSchema: obj({ expression: ['string', 'Math expression'] }, ['expression']),
  },
  {
    name: 'calculator.convert_units',
    description: 'Convert a value between units of length, mass, temperature or time.',
    inputSchema: obj({ value: ['number', 'Value'], from_unit: ['string', 'From unit'], to_unit: ['string', 'To unit'] }, [
      'value',
      'from_unit',
      'to_unit',
    ]),
  },
  {
    name: 'calculator.solve_physics',
    description: 'Solve physics problems: kinematics, electric field, gravitational force, moment of inertia.',
    inputSchema: obj({ problem: ['string', 'Problem statement'] }, ['problem']),
  },
  {
    name: 'graph.shortest_path',
    description: 'Compute the shortest path between two nodes of a weighted graph (Dijkstra).',
    inputSchema: obj({ edges: ['array', 'Edges'], source: ['string', 'Source node'], target: ['string', 'Target node'] }, [
      'edges',
      'source',
      'target',
    ]),
  },
  // search
  {
    name: 'search.web_search',
    description: 'Search the web and return the top results with titles, links and snippets.',
    inputSchema: obj({ query: ['string', 'Search query'], count: ['integer', 'Results'] }, ['query']),
  },
  { name: 'search.news_search', description: 'Search recent news articles.', inputSchema: obj({ query: ['string', 'Query'] }, ['query']) },
  {
    name: 'fetch.fetch_url',
    description: 'Fetch a URL and return its content as markdown.',
    inputSchema: obj({ url: ['string', 'URL'] }, ['url']),
  },
  // travel booking
  {
    name: 'travel.search_flights',
    description: 'Search for flights between two airports on a date.',
    inputSchema: obj(
      { origin: ['string', 'Origin airport'], destination: ['string', 'Destination airport'], date: ['string', 'Departure date'] },
      ['origin', 'destination', 'date'],
    ),
  },
  {
    name: 'travel.book_hotel',
    description: 'Book a hotel room in a city for given check-in and check-out dates.',
    inputSchema: obj(
      {
        city: ['string', 'City'],
        check_in: ['string', 'Check-in date'],
        check_out: ['string', 'Check-out date'],
        guests: ['integer', 'Guests'],
      },
      ['city', 'check_in', 'check_out'],
    ),
  },
  {
    name: 'travel.search_hotels',
    description: 'Search hotels in a city with prices and ratings.',
    inputSchema: obj({ city: ['string', 'City'], check_in: ['string', 'Date'] }, ['city']),
  },
  {
    name: 'travel.book_train',
    description: 'Book train tickets between two stations.',
    inputSchema: obj({ from_station: ['string', 'From'], to_station: ['string', 'To'], date: ['string', 'Date'] }, [
      'from_station',
      'to_station',
      'date',
    ]),
  },
  {
    name: 'travel.plan_itinerary',
    description: 'Create a day-by-day travel itinerary for a trip to a destination.',
    inputSchema: obj(
      { destination: ['string', 'Destination'], days: ['integer', 'Trip length in days'], interests: ['array', 'Interests'] },
      ['destination', 'days'],
    ),
  },
  {
    name: 'travel.rent_car',
    description: 'Rent a car at a pickup location for a date range.',
    inputSchema: obj({ pickup_location: ['string', 'Pickup'], start_date: ['string', 'Start'], end_date: ['string', 'End'] }, [
      'pickup_location',
      'start_date',
    ]),
  },
  {
    name: 'travel.buy_travel_insurance',
    description: 'Buy travel insurance for a trip.',
    inputSchema: obj({ trip_cost: ['number', 'Cost'], destination: ['string', 'Destination'] }, ['trip_cost']),
  },
  // misc
  {
    name: 'slack.send_message',
    description: 'Send a message to a Slack channel or user.',
    inputSchema: obj({ channel: ['string', 'Channel'], text: ['string', 'Text'] }, ['channel', 'text']),
  },
  {
    name: 'gmail.send_email',
    description: 'Send an email to a recipient with a subject and body.',
    inputSchema: obj({ to: ['string', 'Recipient'], subject: ['string', 'Subject'], body: ['string', 'Body'] }, ['to', 'subject', 'body']),
  },
  {
    name: 'shopping.search_products',
    description: 'Search products in the online store by keyword and price range.',
    inputSchema: obj({ query: ['string', 'Keyword'], max_price: ['number', 'Max price'] }, ['query']),
  },
  {
    name: 'spotify.play',
    description: 'Play a song, album, playlist or podcast on Spotify.',
    inputSchema: obj({ query: ['string', 'What to play'] }, ['query']),
  },
  {
    name: 'network.traceroute',
    description: 'Trace the network route packets take from this host to a destination host.',
    inputSchema: obj({ host: ['string', 'Destination host'] }, ['host']),
  },
  {
    name: 'network.add_static_route',
    description: 'Add a static route to the routing table: destination subnet and gateway.',
    inputSchema: obj({ destination: ['string', 'CIDR'], gateway: ['string', 'Gateway IP'] }, ['destination', 'gateway']),
  },
  {
    name: 'monitoring.create_alert',
    description: 'Create a monitoring alert when a metric crosses a threshold for a duration.',
    inputSchema: obj({ metric: ['string', 'Metric'], threshold: ['number', 'Threshold'], duration: ['string', 'Duration'] }, [
      'metric',
      'threshold',
    ]),
  },
  {
    name: 'recipes.get_recipe',
    description: 'Get a recipe with ingredients and cooking instructions.',
    inputSchema: obj({ dish: ['string', 'Dish name'] }, ['dish']),
  },
  {
    name: 'events.search_concerts',
    description: 'Search concerts and tour dates of an artist or band.',
    inputSchema: obj({ artist: ['string', 'Artist'] }, ['artist']),
  },
  {
    name: 'expenses.create_report',
    description: 'Create an expense report from receipts.',
    inputSchema: obj({ title: ['string', 'Title'], receipts: ['array', 'Receipts'] }, ['title']),
  },
];
