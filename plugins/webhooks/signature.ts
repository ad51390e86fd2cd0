import { createHmac, randomBytes, randomUUID } from 'node:crypto';

/** A subscription's signing secret as Standard Webhooks writes it: `whsec_` + base64 of 24 random bytes. */
export function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** An event id: the `webhook-id` of every attempt of every delivery of one event. */
export function newEventId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}

/**
 * `webhook-signature` (Standard Webhooks, v1): base64 HMAC-SHA256 keyed with the secret's decoded bytes
 * over `<id>.<timestamp>.<body>`, where the body is the exact bytes sent.
 */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
