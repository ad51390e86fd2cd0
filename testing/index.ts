/**
 * The test kit (`import { useService } from 'billing-service/testing'`), the one the project's own tests
 * use: a booted service on the embedded database or a given PostgreSQL, REST and AJAX clients per user,
 * users of any role, a throwing `waitFor`, a mail catcher (a real SMTP server) and a fake gateway (a
 * real local HTTP server) with deliveries posted as a gateway posts them. See docs/testing.md.
 */
export { useService, TestService, bootKernel, makeUser, freePort, basic, BUNDLED_PLUGINS } from './service.ts';
export type { ServiceOptions, KernelOptions, TestUser } from './service.ts';
export { RestClient, type RestAnswer, type RawBody } from './rest-client.ts';
export { AjaxClient, Session, meta, type AjaxAnswer } from './session.ts';
export { waitFor } from './wait-for.ts';
export { MailCatcher, type ReceivedMail } from './mail-catcher.ts';
export { FakeGateway, deliver, type SeenRequest, type FakeAnswer } from './fake-gateway.ts';
export { freshDatabase, usingPostgres, type TestDatabase } from './database.ts';
