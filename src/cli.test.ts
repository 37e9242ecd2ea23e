import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './cli.js';

describe('vigil CLI', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-cli-'));
  afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

  async function run(...argv: string[]) {
    let out = '';
    let err = '';
    const code = await runCli(argv, { env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, out: (t) => void (out += t), err: (t) => void (err += t) });
    return { code, out, err, json: () => JSON.parse(out) };
  }

  it('creates an account with a token, all features by default', async () => {
    const r = await run('accounts', 'create', '--email', 'ops@example.com', '--json');
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n')).toHaveLength(1);
    expect(r.json()).toEqual({ id: expect.any(Number), email: 'ops@example.com', token: expect.stringMatching(/^vgl_/) });
  });

  it('refuses a duplicate account and an unknown feature with a JSON error', async () => {
    const dup = await run('accounts', 'create', '--email', 'ops@example.com', '--json');
    expect(dup.code).toBe(1);
    expect(dup.json()).toEqual({ error: { code: 'account_exists', message: expect.any(String) } });
    const bad = await run('accounts', 'create', '--email', 'x@example.com', '--features', 'ocr,teleport', '--json');
    expect(bad.code).toBe(1);
    expect(bad.json().error.message).toMatch(/teleport/);
  });

  it('sets a dashboard password, refusing a weak one', async () => {
    const ok = await run('accounts', 'set-password', '--email', 'ops@example.com', '--password', 'correct horse battery', '--json');
    expect([ok.code, ok.json()]).toEqual([0, { id: expect.any(Number), email: 'ops@example.com' }]);
    const weak = await run('accounts', 'set-password', '--email', 'ops@example.com', '--password', 'short', '--json');
    expect([weak.code, weak.json().error.code]).toEqual([1, 'weak_password']);
  });

  it('creates a license shaped as the API shows it', async () => {
    const r = await run('licenses', 'create', '--account', 'ops@example.com', '--size', '4', '--expires', '2030-05-01', '--va-type', 'genetec', '--json');
    expect(r.code).toBe(0);
    expect(r.json()).toEqual({
      id: expect.any(Number), code: expect.stringMatching(/^VA-/), size: 4, va_type: 'genetec',
      expiration: '2030-05-01T00:00:00.000Z', created: expect.any(String), modified: expect.any(String),
    });
    const bad = await run('licenses', 'create', '--account', 'ops@example.com', '--size', '4', '--expires', '2030-02-30', '--json');
    expect(bad.json().error.code).toBe('invalid_date');
  });

  it('creates and revokes tokens; a revoked token no longer authenticates', async () => {
    const { token } = (await run('tokens', 'create', '--account', 'ops@example.com', '--json')).json();
    expect(token).toMatch(/^vgl_/);
    expect((await run('tokens', 'revoke', token, '--json')).json()).toEqual({ revoked: true });
    const again = await run('tokens', 'revoke', token, '--json');
    expect([again.code, again.json().error.code]).toEqual([1, 'token_not_found']);
  });

  it('lists accounts, licenses, tokens and webhooks, and deletes a webhook', async () => {
    const accounts = (await run('accounts', 'list', '--json')).json();
    expect(accounts).toContainEqual({ id: expect.any(Number), email: 'ops@example.com', features: expect.arrayContaining(['ocr']), created: expect.any(String) });
    const licenses = (await run('licenses', 'list', '--account', 'ops@example.com', '--json')).json();
    expect(licenses.map((l: { size: number }) => l.size)).toContain(4);
    const { token } = (await run('tokens', 'create', '--account', 'ops@example.com', '--json')).json();
    const tokens = (await run('tokens', 'list', '--account', 'ops@example.com', '--json')).json();
    expect(tokens).toContainEqual({ id: expect.any(Number), prefix: token.slice(0, tokens[0].prefix.length), created: expect.any(String), last_used: null });
    expect(JSON.stringify(tokens)).not.toContain(token);
    const hook = (await run('webhooks', 'create', '--account', 'ops@example.com', '--url', 'https://hooks.example.com/vigil', '--json')).json();
    expect((await run('webhooks', 'list', '--account', 'ops@example.com', '--json')).json()).toEqual([expect.objectContaining({ id: hook.id, url: 'https://hooks.example.com/vigil', active: true })]);
    expect((await run('webhooks', 'delete', '--account', 'ops@example.com', String(hook.id), '--json')).json()).toEqual({ deleted: hook.id });
    expect((await run('webhooks', 'list', '--account', 'ops@example.com', '--json')).json()).toEqual([]);
    const gone = await run('webhooks', 'delete', '--account', 'ops@example.com', String(hook.id), '--json');
    expect([gone.code, gone.json().error.code]).toEqual([1, 'webhook_not_found']);
    expect((await run('licenses', 'list', '--account', 'nobody@example.com', '--json')).json().error.code).toBe('account_not_found');
  });

  it('creates, lists, refills and deletes watchlists, from a list or a file', async () => {
    const file = path.join(dataDir, 'plates.txt');
    await fs.writeFile(file, 'XYZ-987, the courier\nkjh7788\n');
    const list = (await run('watchlists', 'create', '--account', 'ops@example.com', '--name', 'gate', '--tag', 'allow', '--fuzzy', '--plates', 'abc1234', '--file', file, '--json')).json();
    expect(list).toMatchObject({ name: 'gate', tag: 'allow', fuzzy: true, plates: [{ plate: 'abc1234', note: '' }, { plate: 'xyz987', note: 'the courier' }, { plate: 'kjh7788', note: '' }] });
    expect((await run('watchlists', 'list', '--account', 'ops@example.com')).out).toContain(`${list.id} gate (allow, fuzzy): 3 plates`);
    const refilled = (await run('watchlists', 'set-plates', '--account', 'ops@example.com', String(list.id), '--plates', 'mno555', '--json')).json();
    expect(refilled.plates).toEqual([{ plate: 'mno555', note: '' }]);
    const bad = await run('watchlists', 'create', '--account', 'ops@example.com', '--name', 'x', '--tag', 'maybe');
    expect(bad.code).not.toBe(0);
    expect((await run('watchlists', 'delete', '--account', 'ops@example.com', String(list.id), '--json')).json()).toEqual({ deleted: list.id });
    expect((await run('watchlists', 'list', '--account', 'ops@example.com', '--json')).json()).toEqual([]);
  });

  it('deletes a license and an account only with --yes', async () => {
    await run('accounts', 'create', '--email', 'leaving@example.com', '--json');
    const license = (await run('licenses', 'create', '--account', 'leaving@example.com', '--size', '2', '--json')).json();
    const unconfirmed = await run('licenses', 'delete', '--account', 'leaving@example.com', String(license.id), '--json');
    expect([unconfirmed.code, unconfirmed.json().error.code]).toEqual([1, 'confirmation_required']);
    expect((await run('licenses', 'list', '--account', 'leaving@example.com', '--json')).json()).toHaveLength(1);
    expect((await run('licenses', 'delete', '--account', 'leaving@example.com', String(license.id), '--yes', '--json')).json()).toEqual({ deleted: license.id, images: 0 });
    expect((await run('licenses', 'list', '--account', 'leaving@example.com', '--json')).json()).toEqual([]);

    expect((await run('accounts', 'delete', '--email', 'leaving@example.com', '--json')).json().error.code).toBe('confirmation_required');
    const removed = (await run('accounts', 'delete', '--email', 'leaving@example.com', '--yes', '--json')).json();
    expect(removed).toEqual({ deleted: expect.any(Number), images: 0 });
    const emails = (await run('accounts', 'list', '--json')).json().map((x: { email: string }) => x.email);
    expect(emails).not.toContain('leaving@example.com');
    expect(emails).toContain('ops@example.com');
  });

  it('analyze-camera prints one object per image with status, anomalies and all four scores', async () => {
    const { sceneJpeg } = await import('../test/fixtures/images.js');
    const sharp = (await import('sharp')).default;
    const ref = path.join(dataDir, 'ref.jpg');
    const same = path.join(dataDir, 'same.jpg');
    const blurred = path.join(dataDir, 'blurred.jpg');
    const tiny = path.join(dataDir, 'tiny.jpg');
    const scene = await sceneJpeg(640, 480, 5);
    await fs.writeFile(ref, scene);
    await fs.writeFile(same, await sharp(scene).jpeg({ quality: 70 }).toBuffer());
    await fs.writeFile(blurred, await sharp(scene).blur(8).jpeg().toBuffer());
    await fs.writeFile(tiny, await sceneJpeg(32, 24, 5));
    const r = await run('analyze-camera', '--reference', ref, same, blurred, tiny, '--json');
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.map((x: { file: string; status: string }) => [x.file, x.status])).toEqual([[same, 'normal'], [blurred, 'anomaly'], [tiny, 'config_issue']]);
    expect(Object.keys(out[0].scores).sort()).toEqual(['Blur', 'Glare', 'Obstruction', 'Position change']);
    expect(Object.keys(out[1].anomalies)).toEqual(['Blur']);
  });

  it('refuses to start on an unmigrated schema when migrations are not automatic; vigil migrate applies them', async () => {
    const fresh = await fs.mkdtemp(path.join(os.tmpdir(), 'vigil-migrate-'));
    try {
      let out = '';
      const io = { env: { DATA_DIR: fresh, RUN_MIGRATIONS: 'false' }, out: (t: string) => void (out += t), err: () => {} };
      expect(await runCli(['accounts', 'create', '--email', 'm@example.com', '--json'], io)).toBe(1);
      expect(JSON.parse(out).error.message).toMatch(/not migrated.*vigil migrate/);
      out = '';
      expect(await runCli(['migrate', '--json'], io)).toBe(0);
      expect(JSON.parse(out).applied).toContain('001-foundation');
      out = '';
      expect(await runCli(['accounts', 'create', '--email', 'm@example.com', '--json'], io)).toBe(0);
    } finally {
      await fs.rm(fresh, { recursive: true, force: true });
    }
  });

  it('names the bad variable on invalid configuration', async () => {
    let out = '';
    const code = await runCli(['migrate', '--json'], { env: { DATA_DIR: dataDir, DATABASE_URL: 'mysql://nope' }, out: (t) => void (out += t), err: () => {} });
    expect(code).toBe(1);
    expect(JSON.parse(out).error).toMatchObject({ code: 'invalid_config', message: expect.stringContaining('DATABASE_URL') });
  });
});
