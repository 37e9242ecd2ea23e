import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../../../../test/helpers/smtp-sink.js';
import { buildTestApp, type TestApp } from '../../../../test/helpers/test-app.js';
import { LINK_INVALID, LINK_SENT } from './auth.routes.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('dashboard sign-in by e-mailed link', () => {
  let t: TestApp;
  let smtp: SmtpSink;
  let address = 0;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await buildTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://vigil.example' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  // Requests are throttled per client address: each test speaks from its own.
  const ask = (email: string, remoteAddress = `10.1.0.${++address}`, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/login/link', remoteAddress, payload: new URLSearchParams({ email }).toString(), headers: { ...FORM, ...headers } });
  const use = (token: string) =>
    t.app.inject({ method: 'POST', url: '/login/link/use', payload: new URLSearchParams({ token }).toString(), headers: FORM });
  const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email));
  const tokenIn = (text: string) => /https:\/\/vigil\.example\/login\/link\?token=([\w-]+)/.exec(text)?.[1];

  it('offers the link form on the sign-in page', async () => {
    const page = await t.app.inject({ url: '/login' });
    expect(page.body).toContain('action="/login/link"');
  });

  it('e-mails a single-use link that signs the account in', async () => {
    const a = await t.account();
    const res = await ask(a.email.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(LINK_SENT);
    const [mail] = await waitForMail(a.email, 1);
    expect(mail!.subject).toBe('Your Vigil sign-in link');
    const token = tokenIn(mail!.text)!;
    expect(token).toBeDefined();

    // Only the token's hash is stored.
    const rows = await t.container.db.selectFrom('login_links').select(['id', 'expires_at']).where('account_id', '=', a.id).execute();
    expect(rows.map((r) => r.id)).toEqual([createHash('sha256').update(token).digest('hex')]);
    expect(Number(rows[0]!.expires_at) - Date.now()).toBeLessThanOrEqual(15 * 60_000);

    // Opening the link only shows a button (mail scanners follow links); the button signs in.
    const landing = await t.app.inject({ url: `/login/link?token=${token}` });
    expect(landing.statusCode).toBe(200);
    expect(landing.headers['set-cookie']).toBeUndefined();
    expect(landing.body).toContain(`value="${token}"`);
    const signedIn = await use(token);
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/');
    const cookie = String(signedIn.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    const home = await t.app.inject({ url: '/', headers: { cookie: cookie.split(';')[0]! } });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain(a.email);

    // Used once, then never again.
    const again = await use(token);
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain(LINK_INVALID);
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('returns to the page that asked for sign-in, and never to another site', async () => {
    const a = await t.account();
    // A signed-out visit to a camera page sends the browser to /login?next=...
    const login = await t.app.inject({ url: '/login?next=%2Fcameras%3Fstatus%3Danomaly' });
    expect(login.body).toContain('name="next" value="/cameras?status=anomaly"');
    const asked = await t.app.inject({
      method: 'POST', url: '/login/link', remoteAddress: `10.1.0.${++address}`, headers: FORM,
      payload: new URLSearchParams({ email: a.email, next: '/cameras?status=anomaly' }).toString(),
    });
    expect(asked.statusCode).toBe(200);
    const [mail] = await waitForMail(a.email, 1);
    const link = /https:\/\/vigil\.example(\/login\/link\?\S+)/.exec(mail!.text)![1]!;
    expect(link).toContain('&next=%2Fcameras%3Fstatus%3Danomaly');
    const landing = await t.app.inject({ url: link });
    expect(landing.body).toContain('name="next" value="/cameras?status=anomaly"');
    const token = tokenIn(mail!.text)!;
    const signedIn = await t.app.inject({ method: 'POST', url: '/login/link/use', headers: FORM, payload: new URLSearchParams({ token, next: '/cameras?status=anomaly' }).toString() });
    expect(signedIn.statusCode).toBe(303);
    expect(signedIn.headers.location).toBe('/cameras?status=anomaly');

    // A link whose next was tampered with to leave the dashboard lands on / instead.
    await ask(a.email);
    const [, second] = await waitForMail(a.email, 2);
    const hostile = await t.app.inject({ method: 'POST', url: '/login/link/use', headers: FORM, payload: new URLSearchParams({ token: tokenIn(second!.text)!, next: '//evil.example/x' }).toString() });
    expect(hostile.statusCode).toBe(303);
    expect(hostile.headers.location).toBe('/');
  });

  it('refuses an expired link and a made-up one', async () => {
    const a = await t.account();
    await ask(a.email);
    const [mail] = await waitForMail(a.email, 1);
    await t.container.db.updateTable('login_links').set({ expires_at: Date.now() - 1 }).where('account_id', '=', a.id).execute();
    expect((await use(tokenIn(mail!.text)!)).statusCode).toBe(400);
    expect((await use('x'.repeat(43))).statusCode).toBe(400);
  });

  it('answers an unknown address exactly like a known one and sends nothing', async () => {
    const a = await t.account();
    const known = await ask(a.email);
    const unknown = await ask('nobody-here@example.com');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body.replaceAll('nobody-here@example.com', a.email)).toBe(known.body);
    await waitForMail(a.email, 1);
    await t.container.runner.drain();
    expect(mailsTo('nobody-here@example.com')).toEqual([]);
  });

  it('throttles requests per address and e-mails per account, and refuses another origin', async () => {
    const a = await t.account();
    const from = '10.2.0.1';
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push((await ask(a.email, from)).statusCode);
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(answers[10]).toBe(429);
    // Ten answered requests, but at most three e-mails per quarter hour to one inbox.
    await waitForMail(a.email, 3);
    await t.container.runner.drain();
    expect(mailsTo(a.email)).toHaveLength(3);

    const cross = await ask(a.email, '10.2.0.2', { origin: 'https://evil.example' });
    expect(cross.statusCode).toBe(403);
  });

  it('has no link form and no link route without SMTP_URL', async () => {
    const plain = await buildTestApp();
    try {
      const page = await plain.app.inject({ url: '/login' });
      expect(page.body).not.toContain('action="/login/link"');
      const res = await plain.app.inject({ method: 'POST', url: '/login/link', payload: 'email=a%40b.c', headers: FORM });
      expect(res.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });

  async function waitForMail(email: string, count: number) {
    const deadline = Date.now() + 10_000;
    while (mailsTo(email).length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(mailsTo(email).length).toBeGreaterThanOrEqual(count);
    return mailsTo(email);
  }
});
