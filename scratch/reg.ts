import { loadRegistry } from '../sandbox/orm/registry';
const r = loadRegistry();
console.log(r.models.size);
for (const m of r.models.values()) console.log(m.name, '|', m.order, '|', m.displayNameSql.slice(0, 100));
