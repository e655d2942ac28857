import { createKnowledge } from '../src/knowledge/index.js'
const kb = createKnowledge(process.argv[2]!)
const inv = JSON.parse(process.argv[4]!)
const d = kb.decompose({ object: process.argv[3]!, count: 1 }, inv)
if (!d.ok) console.log('not ok', d)
else for (const s of d.steps) console.log(s.kind, s.goal.object, s.goal.count)
