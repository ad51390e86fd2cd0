// The Webhooks screen, declared as data: the subscriptions, adding one (its signing secret shown once),
// pausing, testing and removing one, and each one's recent deliveries with their result.
import { resourceScreen } from '../../core/plugin-api.ts';
import { ACTIVE_ARG, EVENTS_ARG, URL_ARG } from './subscriptions.ts';

const CAP = 'bill_manage_settings';

export const webhooksScreen = resourceScreen({
  slug: 'webhooks.php',
  title: 'Webhooks',
  capability: CAP,
  order: 75,
  description: 'Signed HTTP callbacks (Standard Webhooks) to other systems when invoices, quotes, payments and credit notes change.',
  list: {
    route: '/webhooks',
    rowLabel: '{url}',
    empty: 'No subscriptions yet. Add one with "Add subscription".',
    columns: [
      { key: 'url', label: 'URL' },
      { key: 'events', label: 'Events', format: 'list' },
      { key: 'active', label: 'Active', format: 'yesno' },
      { key: 'created', label: 'Created' },
    ],
  },
  actions: [
    { label: 'Send test', method: 'POST', route: '/webhooks/{id}/test', done: 'Test event sent: {result} (HTTP {status}).' },
    { label: 'Pause', method: 'PUT', route: '/webhooks/{id}', body: { active: false }, when: { active: [true] }, done: '{url} is paused.' },
    {
      label: 'Resume',
      method: 'PUT',
      route: '/webhooks/{id}',
      body: { active: true },
      when: { active: [false] },
      done: '{url} is active again.',
    },
    {
      label: 'Remove',
      method: 'DELETE',
      route: '/webhooks/{id}',
      confirm: 'Remove the subscription of {url}? Its delivery log goes with it.',
      done: 'The subscription of {url} is removed.',
    },
  ],
  details: {
    label: 'Deliveries',
    route: '/webhooks/{id}/deliveries',
    empty: 'Nothing delivered yet.',
    columns: [
      { key: 'date', label: 'When' },
      { key: 'type', label: 'Event' },
      { key: 'attempt', label: 'Try' },
      { key: 'status', label: 'HTTP status' },
      { key: 'duration_ms', label: 'Time (ms)' },
      { key: 'result', label: 'Result', format: 'status' },
      { key: 'error', label: 'Error' },
    ],
  },
  create: {
    label: 'Add subscription',
    route: '/webhooks',
    fields: {
      url: { ...URL_ARG, required: true, title: 'Endpoint URL' },
      events: { ...EVENTS_ARG, required: true, title: 'Events', description: 'Tick "*" for every event, today\'s and later ones.' },
      active: { ...ACTIVE_ARG, default: true, title: 'Active' },
    },
    submit: 'Save subscription',
    done: 'Subscription to {url} added.',
    reveal: { key: 'secret', label: 'Signing secret (shown this once: copy it to the receiver now)' },
  },
});
