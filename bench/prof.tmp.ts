import { queryFor, sides } from './graphql.js';
const s = sides(queryFor(10, 2));
for (let i = 0; i < 60000; i++) await s.ergraph();
