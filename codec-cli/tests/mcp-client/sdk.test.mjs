// `codec mcp` through the official TypeScript MCP SDK
// (`@modelcontextprotocol/sdk`, pinned in package-lock.json): the SDK starts
// the server over stdio, initializes (2025-11-25, the newest revision this
// SDK speaks), lists the tools and calls them; results are parsed with the
// SDK's own schema and validated by its client against the tool's output
// schema.
//
//   npm ci --prefix codec-cli/tests/mcp-client
//   CODEC=target/debug/codec node --test codec-cli/tests/mcp-client/sdk.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const codec = process.env.CODEC ?? join(root, 'target/debug/codec');

// Small enough for the whole markdown to fit the default text limit.
const documents = {
  github: join(root, 'codec-cli/data/sample.json'),
  analytics: join(root, 'benches/data/analytics.json'),
  'nested-config': join(root, 'benches/data/nested-config.json'),
};

const renderMd = (file) => execFileSync(codec, ['render', '--to', 'md', file], { encoding: 'utf8' });

async function connect(dir, flags = []) {
  const client = new Client({ name: 'codec-tests', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: codec, args: ['mcp', dir, ...flags], stderr: 'ignore' });
  await client.connect(transport);
  return client;
}

test('documents through the TypeScript SDK', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'codec-mcp-ts-'));
  try {
    for (const [name, file] of Object.entries(documents)) {
      copyFileSync(file, join(dir, `${name}.json`));
    }
    writeFileSync(join(dir, 'broken.json'), '{"a": [1, 2}\n');
    const client = await connect(dir);
    assert.equal(client.getServerVersion().name, 'codec');

    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ['list', 'get']);
    assert.deepEqual(tools[1].inputSchema.properties.name.enum, ['analytics', 'broken', 'github', 'nested-config']);
    assert.equal(tools[1].outputSchema.type, 'object');

    const listing = CallToolResultSchema.parse(await client.callTool({ name: 'list', arguments: {} }));
    const rows = Object.fromEntries(listing.structuredContent.documents.map((d) => [d.name, d]));
    assert.deepEqual(rows.github, { name: 'github', rows: 100 });
    assert.match(rows.broken.error, /invalid JSON/);

    for (const [name, file] of Object.entries(documents)) {
      // callTool validates structuredContent against the listed schema.
      const result = CallToolResultSchema.parse(await client.callTool({ name: 'get', arguments: { name } }));
      assert.equal(result.isError, undefined, name);
      assert.equal(result.content.length, 1, name);
      assert.equal(result.content[0].type, 'text', name);
      assert.equal(result.content[0].text, renderMd(file), name);
      assert.deepEqual(result.structuredContent, JSON.parse(readFileSync(file, 'utf8')), name);
    }

    const page = await client.callTool({ name: 'get', arguments: { name: 'github', offset: 98, limit: 10 } });
    const github = JSON.parse(readFileSync(documents.github, 'utf8'));
    assert.deepEqual(page.structuredContent, { repositories: github.repositories.slice(98) });

    const missing = await client.callTool({ name: 'get', arguments: { name: 'nope' } });
    assert.equal(missing.isError, true);
    assert.equal(
      missing.content[0].text,
      'no document named "nope"; the documents are: analytics, broken, github, nested-config',
    );
    const broken = await client.callTool({ name: 'get', arguments: { name: 'broken' } });
    assert.equal(broken.isError, true);
    assert.match(broken.content[0].text, /^document "broken" cannot be read: /);

    await assert.rejects(client.callTool({ name: 'delete', arguments: {} }), (error) => {
      assert.ok(error instanceof McpError, String(error));
      assert.equal(error.code, -32602);
      assert.match(error.message, /Unknown tool: delete \(the tools are list and get\)/);
      return true;
    });
    await client.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an array is wrapped for the 2025 revision', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'codec-mcp-ts-'));
  try {
    writeFileSync(join(dir, 'numbers.json'), '[1, 2.5, 3]');
    const client = await connect(dir);
    const { tools } = await client.listTools();
    assert.equal(tools[1].outputSchema.type, 'object');
    const result = await client.callTool({ name: 'get', arguments: { name: 'numbers' } });
    assert.equal(result.content[0].text, '1, 2.5, 3\n');
    assert.deepEqual(result.structuredContent, { result: [1, 2.5, 3] });
    await client.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// A model that follows the notes of texts cut to the limit reads every row
// once: a table (cut after a row) and rows written as sections (cut
// between rows).
test('notes page through documents over the limit', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'codec-mcp-ts-'));
  try {
    const issues = Array.from({ length: 100 }, (_, i) => ({
      id: i,
      title: `issue ${i}`,
      user: { login: `user${i}`, labels: ['a', 'b'] },
    }));
    writeFileSync(join(dir, 'issues.json'), JSON.stringify({ issues }));
    copyFileSync(documents.github, join(dir, 'github.json'));
    const limit = 2500;
    const client = await connect(dir, ['--mcp-text-limit', `${limit}chars`]);
    for (const name of ['github', 'issues']) {
      const [[key, rows]] = Object.entries(JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')));
      const read = [];
      let args = { name };
      let pages = 0;
      for (;;) {
        pages += 1;
        assert.ok(pages < 100, `${name}: no end`);
        const result = CallToolResultSchema.parse(await client.callTool({ name: 'get', arguments: args }));
        const text = result.content[0].text;
        assert.ok([...text].length <= limit, `${name}: ${text.length}`);
        read.push(...result.structuredContent[key]);
        const call = text.match(/Call get with (\{.*?\}) for the next rows\.\]$/);
        if (call === null) {
          assert.ok(!text.includes('[Truncated'), text);
          break;
        }
        args = JSON.parse(call[1]);
        assert.deepEqual(args, { name, offset: read.length }, text);
      }
      assert.ok(pages > 2, `${name}: ${pages} pages`);
      assert.deepEqual(read, rows, name);
    }
    await client.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
