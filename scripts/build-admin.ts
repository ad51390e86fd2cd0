import { buildAdmin } from '../core/admin/build.ts';

// `npm install` (prepare), `.ci/run` and anyone who changed the app: the admin bundle, rebuilt
const m = await buildAdmin();
console.log(`admin app built: ${m.js}, ${m.css}`);
