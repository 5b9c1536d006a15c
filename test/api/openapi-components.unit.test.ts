import * as z from 'zod/mini';
import { jsonSchemaOf, loadRouteTable, openApiDocument } from '../../lib/openapi';
import { clientSource } from '../../scripts/openapi';
import type { Route } from '../../shared/kernel/http/route';

/** Records registered with an id are named once in `components.schemas` and `$ref`ed, in the document and the client. */
describe('named record schemas', () => {
  it('the document names each record once and refers to it, never inlining it', async () => {
    const doc = openApiDocument(await loadRouteTable());
    const schemas = doc.components.schemas;
    for (const id of ['Deployment', 'Resource', 'Commit', 'ChangedFile', 'Conflict', 'Comment']) {
      expect(schemas[id]).toMatchObject({ type: 'object' });
    }
    const text = JSON.stringify(doc.paths);
    expect(text).toContain('"$ref":"#/components/schemas/Deployment"');
    // The deployment's own fields appear once, in its component: no route inlines them again.
    expect(text).not.toContain('"previousDeploymentId"');
    expect(JSON.stringify(schemas)).not.toContain('#/$defs/');
  });

  it('the client declares a type per record and uses it in the operations', async () => {
    const source = clientSource(openApiDocument(await loadRouteTable()));
    expect(source).toMatch(/^export type Deployment = \{$/m);
    expect(source).toMatch(/deployments: Deployment\[\];/);
    // The error shapes are not records of the client.
    expect(source).not.toMatch(/^export type Error /m);
  });

  it('refuses two different schemas under one id, and a named schema where none may be', () => {
    const one = z.object({ a: z.string() }).register(z.globalRegistry, { id: 'TestClash' });
    const other = z.object({ b: z.number() }).register(z.globalRegistry, { id: 'TestClash' });
    const components = new Map();
    expect(jsonSchemaOf(z.object({ x: one }), 'first', components)).toEqual({
      type: 'object',
      properties: { x: { $ref: '#/components/schemas/TestClash' } },
      required: ['x'],
    });
    expect(() => jsonSchemaOf(z.object({ y: other }), 'second', components)).toThrow(
      'second: two different schemas are registered as TestClash',
    );
    expect(() => jsonSchemaOf(one, 'params')).toThrow(
      'params: uses the named schema TestClash, which has no place here',
    );
  });

  it('documents a route whose response is a record', () => {
    const Thing = z.object({ id: z.string() }).register(z.globalRegistry, { id: 'TestThing' });
    const route = {
      method: 'GET',
      path: '/v1/things',
      segments: ['v1', 'things'],
      access: 'public',
      summary: 'Things.',
      responses: { 200: z.object({ things: z.array(Thing) }) },
    } as unknown as Route;
    const doc = openApiDocument([{ group: 'core', routes: [route] }]);
    expect(doc.components.schemas.TestThing).toEqual({
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
    });
    expect(clientSource(doc)).toContain('export type TestThing = {\n  id: string;\n};');
  });
});
