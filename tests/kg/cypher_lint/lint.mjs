// Reads {"name": "statement", ...} as JSON on stdin and prints {"name": [diagnostic, ...]}
// using Neo4j's own Cypher parser; "parameter is not defined" notices are left out because
// the statements are linted without parameter values.
import { lintCypherQuery, isNotParamError } from '@neo4j-cypher/language-support';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const statements = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const report = {};
for (const [name, statement] of Object.entries(statements)) {
  const { diagnostics } = lintCypherQuery(statement, {});
  report[name] = diagnostics
    .filter((d) => !/^Parameter \$\w+ is not defined\.$/.test(d.message))
    .map((d) => ({ message: d.message, severity: d.severity, offsets: d.offsets }));
}
process.stdout.write(JSON.stringify(report));
