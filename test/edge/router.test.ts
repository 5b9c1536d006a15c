import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { type EdgeRequest, type EdgeResponse, routeRequest } from '../../shared/domains/serving/router';
import { artifactsBucket } from '../../shared/kernel/config';
import type { AnalyticsEvent } from '../../shared/ports/analytics';
import { keepAnalytics, takeAnalytics } from '../../shared/ports/analytics/local';
import { awsArtifacts } from '../../shared/ports/artifacts/aws';
import { storage } from '../../shared/ports/object-storage';
import { type Deployments, deploy, edgeFetch, newProject, waitFinal, withDeployments } from '../deployments/helpers';
import { tarOfDir } from '../fixtures/tar';
import type { TestPlatform } from '../helpers/platform';
import { until } from '../helpers/until';

/**
 * The router the sites are served by on AWS (shared/domains/serving/router.ts behind CloudFront) answers as
 * the local edge does: the same host lookup, static files, clean URLs and the 404 page, a server
 * function's answer with its variables, the status pages; and the AWS artifacts adapter reads the
 * same static output from the bucket (the local S3 engine) as the local one from its folder.
 */
let p: TestPlatform;
let env: Deployments;
const fixture = join(__dirname, '..', 'fixtures', 'static-site');
withDeployments((platform, deployments) => {
  p = platform;
  env = deployments;
});

let n = 0;
const ask = (host: string, path = '/', method = 'GET'): Promise<EdgeResponse> =>
  routeRequest({
    method,
    host,
    path,
    query: '',
    headers: { 'user-agent': 'test' },
    body: Buffer.alloc(0),
    sourceIp: '127.0.0.1',
    requestId: `req-${n++}`,
  } satisfies EdgeRequest);
const bodyText = async (r: EdgeResponse) =>
  Buffer.isBuffer(r.body) ? r.body.toString('utf8') : text(r.body as NodeJS.ReadableStream);

describe('a static site', () => {
  let host: string;
  let deploymentId: string;
  let projectId: string;
  beforeAll(async () => {
    ({ projectId } = await newProject(p, 'static'));
    ({ host, deploymentId } = await deploy(p, projectId, tarOfDir(fixture), 'preview'));
    expect((await waitFinal(p, deploymentId)).deployment.status).toBe('ready');
  });

  it.each([
    ['/', 200],
    ['/assets/style.css', 200],
    ['/about', 200],
    ['/nope', 404],
  ])('%s answers what the local edge answers', async (path, status) => {
    const [routed, local] = await Promise.all([ask(host, path), edgeFetch(env.edge, host, path)]);
    expect(routed.status).toBe(status);
    expect(local.status).toBe(status);
    expect(await bodyText(routed)).toBe(local.text);
    expect(routed.headers['content-type']).toBe(local.headers['content-type']);
    expect(routed.headers['cache-control']).toBe('public, max-age=0, s-maxage=5');
  });

  it("counts each visitor's request for its organization and project (analytics' edgeRequests), on both edges", async () => {
    const stop = keepAnalytics();
    try {
      takeAnalytics();
      await ask(host, '/about');
      await edgeFetch(env.edge, host, '/nope');
      const seen: AnalyticsEvent[] = [];
      // The local edge records when its response has finished.
      await until(async () => {
        seen.push(...takeAnalytics().filter((e) => e.group === 'edge' && e.projectId === projectId));
        return seen.length >= 2 ? true : undefined;
      });
      expect(seen.map((e) => [e.orgId, e.action, e.status])).toEqual([
        [p.org.orgId, 'edge.request', 200],
        [p.org.orgId, 'edge.request', 404],
      ]);
    } finally {
      stop();
    }
  });

  it('keeps a path inside the output; HEAD has no body; other methods are 405', async () => {
    for (const path of ['/../../build.log', '/%2e%2e/build.log', '/%zz']) {
      expect(await bodyText(await ask(host, path))).not.toContain('"m"');
    }
    const head = await ask(host, '/', 'HEAD');
    expect(head.status).toBe(200);
    expect(await bodyText(head)).toBe('');
    expect((await ask(host, '/', 'POST')).status).toBe(405);
  });

  it('reads the same output from the bucket on AWS (objects under artifacts/<id>/static/)', async () => {
    const bucket = { name: artifactsBucket() };
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else files.push(full);
      }
    };
    const out = join(process.env.DATA_DIR as string, 'deployments', deploymentId, 'static');
    walk(out);
    for (const f of files) {
      const key = `artifacts/${deploymentId}/static/${relative(out, f).split('\\').join('/')}`;
      const url = await storage().presignPut(bucket, key, { expiresIn: 60, contentType: 'application/octet-stream' });
      const put = await fetch(url, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream' },
        body: readFileSync(f),
      });
      expect(put.status).toBe(200);
    }
    const s3 = awsArtifacts();
    for (const [path, status] of [
      ['/', 200],
      ['/about', 200],
      ['/assets/style.css', 200],
      ['/nope', 404],
    ] as const) {
      const file = await s3.readStatic(deploymentId, path);
      const local = await edgeFetch(env.edge, host, path);
      expect(file?.status).toBe(status);
      expect(file?.contentType).toBe(local.headers['content-type']);
      expect(await text(Readable.fromWeb(file?.body as never))).toBe(local.text);
    }
    expect(await s3.readStatic(deploymentId, '/../manifest.json')).toBeUndefined();
    expect(await s3.readStatic(deploymentId, '/%zz')).toBeUndefined();
  });
});

it('a host nobody holds is a 404 page, never cached', async () => {
  const res = await ask(`nothing-${Date.now()}.localhost:${env.edge.port}`);
  expect(res.status).toBe(404);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(await bodyText(res)).toContain('Deployment not found');
});

describe('a node server', () => {
  it("answers with its function's answer, its variables, the visitor's host", async () => {
    const { projectId } = await newProject(p, 'node');
    await p.post(`/v1/orgs/${p.org.orgId}/projects/${projectId}/env`, {
      vars: [{ key: 'GREETING_NAME', value: 'router' }],
      targets: ['preview', 'production'],
    });
    const { host, deploymentId } = await deploy(
      p,
      projectId,
      tarOfDir(join(__dirname, '..', 'fixtures', 'node-server')),
    );
    expect((await waitFinal(p, deploymentId, 60_000)).deployment.status).toBe('ready');
    const res = await ask(host, '/hello');
    expect(res.status).toBe(200);
    expect(JSON.parse(await bodyText(res))).toEqual({
      message: 'Hello, router!',
      path: '/hello',
      target: 'preview',
      requestId: expect.any(String),
    });
  });
});
