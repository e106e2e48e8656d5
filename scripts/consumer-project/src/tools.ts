// Everything the server serves, in one module (also what `roundtrip visualize` reads).
export { greetTool } from './greet-tool.js';
export { planTrip } from './trip-flow.js';
