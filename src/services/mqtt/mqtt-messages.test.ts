import { describe, expect, it } from 'vitest';
import type { VigilEvent } from '../notifications/ports.js';
import { messagesOf, topicLevel } from './mqtt-messages.js';

const settings = { prefix: 'vigil', discoveryPrefix: 'homeassistant' };
const state = (status: string, previous: string | null): VigilEvent => ({
  kind: 'camera.state', camera: { serial: 'Yard-1', name: 'North gate' }, status, previous, anomalies: {}, scores: null, at: Date.UTC(2026, 10, 27),
});

describe('MQTT messages', () => {
  it('make any serial or camera id one topic level', () => {
    expect(topicLevel('gate/1+#')).toBe('gate_1__');
    expect(topicLevel('a\u0000b\nc')).toBe('a_b_c');
    expect(topicLevel('')).toBe('_');
    expect(topicLevel('Lane 2 – east')).toBe('Lane 2 – east');
  });

  it('retain the camera state and add a change message only when the status changed', () => {
    const changed = messagesOf(7, state('anomaly', 'normal'), settings).messages;
    expect(changed.map((m) => [m.topic, m.retain])).toEqual([['vigil/7/cameras/Yard-1/state', true], ['vigil/7/cameras/Yard-1/changed', false]]);
    expect(JSON.parse(changed[0]!.payload)).toMatchObject({ status: 'anomaly', previous_status: 'normal', updated_at: '2026-11-27T00:00:00.000Z' });
    expect(messagesOf(7, state('anomaly', 'anomaly'), settings).messages.map((m) => m.topic)).toEqual(['vigil/7/cameras/Yard-1/state']);
  });

  it('give two serials that look alike two Home Assistant devices, and none when discovery is off', () => {
    const ids = (serial: string) => messagesOf(1, { ...state('normal', null), camera: { serial, name: '' } } as VigilEvent, settings).announce.map((m) => JSON.parse(m.payload).unique_id);
    const [a, b] = [ids('Cam-1'), ids('cam_1')];
    expect(a).toHaveLength(5);
    expect(a[0]).toMatch(/^vigil_1_camera_cam_1_[0-9a-f]{6}_status$/);
    expect(a.filter((id) => b.includes(id))).toEqual([]);
    expect(messagesOf(1, state('normal', null), { prefix: 'vigil', discoveryPrefix: undefined }).announce).toEqual([]);
  });

  it('publish the last plate only when a plate was read, the best of the call', () => {
    const read = (plates: Array<[string, number]>): VigilEvent => ({
      kind: 'plate.read', cameraId: null,
      body: { camera_id: null, timestamp: 't', file_url: null, results: plates.map(([plate, score]) => ({ plate, score, region: { code: 'eu' }, box: {} })) },
    });
    expect(messagesOf(1, read([['', 0]]), settings).messages.map((m) => m.topic)).toEqual(['vigil/1/plates/_/read']);
    const both = messagesOf(1, read([['ab12', 0.7], ['cd34', 0.9]]), settings).messages;
    expect(both.map((m) => m.topic)).toEqual(['vigil/1/plates/_/read', 'vigil/1/plates/_/last']);
    expect(JSON.parse(both[1]!.payload)).toMatchObject({ plate: 'cd34', score: 0.9, region: 'eu' });
  });
});
