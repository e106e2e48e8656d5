// The stdio server a desktop host starts: `node dist/server.js`.
import { mainStdioServer } from '@roundtrip/transport-stdio';
import { greetTool, planTrip } from './tools.js';

await mainStdioServer({ name: 'consumer-test', version: '1.0.0', tools: [greetTool, planTrip] });
