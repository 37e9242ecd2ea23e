import { createHash } from 'node:crypto';
import { ANOMALY_KEYS } from '../../domain/camera-health.js';
import type { VigilEvent } from '../notifications/ports.js';
import { VERSION } from '../../version.js';

/** One MQTT message as the `mqtt.publish` job carries it. */
export interface MqttMessage {
  topic: string;
  payload: string;
  retain: boolean;
}

export interface TopicSettings {
  /** First level of every Vigil topic (MQTT_TOPIC_PREFIX, `vigil`). */
  prefix: string;
  /** Home Assistant's discovery prefix, or undefined when discovery is off. */
  discoveryPrefix: string | undefined;
}

/** The messages of one event: what subscribers read, and the Home Assistant discovery configs
 * (retained; the publisher sends each once per process) that make its camera a device. */
export function messagesOf(accountId: number, event: VigilEvent, s: TopicSettings): { messages: MqttMessage[]; announce: MqttMessage[] } {
  const base = `${s.prefix}/${accountId}`;
  switch (event.kind) {
    case 'camera.state': {
      const camera = `${base}/cameras/${topicLevel(event.camera.serial)}`;
      const state = `${camera}/state`;
      const payload = JSON.stringify({
        serial: event.camera.serial, name: event.camera.name, status: event.status, previous_status: event.previous,
        anomalies: event.anomalies, scores: event.scores, updated_at: new Date(event.at).toISOString(),
      });
      const messages = [{ topic: state, payload, retain: true }];
      if (event.previous !== event.status) messages.push({ topic: `${camera}/changed`, payload, retain: false });
      return { messages, announce: s.discoveryPrefix ? cameraDiscovery(s.discoveryPrefix, accountId, event.camera, state) : [] };
    }
    case 'plate.read': {
      const camera = topicLevel(event.cameraId ?? '');
      const messages = [{ topic: `${base}/plates/${camera}/read`, payload: JSON.stringify(event.body), retain: false }];
      const best = [...event.body.results].filter((r) => r.plate !== '').sort((a, b) => b.score - a.score)[0];
      if (!best) return { messages, announce: [] };
      const last = `${base}/plates/${camera}/last`;
      const lastBody = {
        plate: best.plate, score: best.score, region: best.region.code, camera_id: event.cameraId, timestamp: event.body.timestamp, file_url: event.body.file_url,
      };
      messages.push({ topic: last, payload: JSON.stringify(lastBody), retain: true });
      return { messages, announce: s.discoveryPrefix ? plateDiscovery(s.discoveryPrefix, accountId, event.cameraId, last) : [] };
    }
    case 'visit.started':
      return { messages: [{ topic: `${base}/visits/${topicLevel(event.cameraId ?? '')}/started`, payload: JSON.stringify(event.body), retain: false }], announce: [] };
    case 'watchlist.match':
      return { messages: [{ topic: `${base}/watchlists/${topicLevel(event.tag)}/match`, payload: JSON.stringify(event.body), retain: false }], announce: [] };
  }
}

/** A camera serial or id as one topic level: the characters MQTT gives a meaning (`/`, `+`, `#`)
 * and control characters become `_`; an empty one is `_` (plate calls without camera_id). */
export function topicLevel(value: string): string {
  const level = value.replace(/[/+#\u0000-\u001f\u007f]/g, '_');
  return level === '' ? '_' : level;
}

/** An id Home Assistant accepts (letters, digits, `_`), with a hash of the raw value so that
 * `Cam-1` and `cam_1` stay two devices. */
function objectId(value: string): string {
  const slug = value.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '').slice(0, 40);
  return `${slug || 'none'}_${createHash('sha1').update(value).digest('hex').slice(0, 6)}`;
}

const ORIGIN = { name: 'Vigil', sw_version: VERSION };

function sensor(discoveryPrefix: string, uniqueId: string, config: Record<string, unknown>): MqttMessage {
  return { topic: `${discoveryPrefix}/sensor/${uniqueId}/config`, payload: JSON.stringify({ ...config, unique_id: uniqueId, origin: ORIGIN }), retain: true };
}

/** A camera as a device: its status sensor (attributes: the whole state) and one sensor per
 * anomaly score. */
function cameraDiscovery(prefix: string, accountId: number, camera: { serial: string; name: string }, stateTopic: string): MqttMessage[] {
  const id = `vigil_${accountId}_camera_${objectId(camera.serial)}`;
  const device = { identifiers: [id], name: camera.name || camera.serial, manufacturer: 'Vigil', model: 'Camera monitoring', serial_number: camera.serial };
  return [
    sensor(prefix, `${id}_status`, {
      name: 'Status', state_topic: stateTopic, value_template: '{{ value_json.status }}', json_attributes_topic: stateTopic, icon: 'mdi:cctv', device,
    }),
    ...ANOMALY_KEYS.map((key) =>
      sensor(prefix, `${id}_${objectId(key).replace(/_[0-9a-f]{6}$/, '')}`, {
        name: key, state_topic: stateTopic, state_class: 'measurement', suggested_display_precision: 2, device,
        // No scores (the reference upload, a config issue, offline): the sensor reads unknown.
        value_template: `{{ value_json.scores['${key}'] if value_json.scores else None }}`,
      }),
    ),
  ];
}

/** A plate camera (the `camera_id` of plate calls) as a device with its last read plate. */
function plateDiscovery(prefix: string, accountId: number, cameraId: string | null, lastTopic: string): MqttMessage[] {
  const id = `vigil_${accountId}_plates_${objectId(cameraId ?? '')}`;
  const device = { identifiers: [id], name: cameraId ? `Plates ${cameraId}` : 'Plates', manufacturer: 'Vigil', model: 'Plate recognition' };
  return [
    sensor(prefix, `${id}_last_plate`, {
      name: 'Last plate', state_topic: lastTopic, value_template: '{{ value_json.plate }}', json_attributes_topic: lastTopic, icon: 'mdi:car', device,
    }),
  ];
}
