// tck explore finds each stateful Platinum fault of platinum-faults.ts (see finds.ts for what that
// means); faults.test.ts measures which fixed scenarios catch them, and holds the bridge faults.
import { FAULTS } from './faults.js';
import { describeExploreFinds } from './finds.js';

describeExploreFinds(FAULTS.filter((f) => f.platinum));
