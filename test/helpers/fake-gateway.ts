export * from '../../testing/fake-gateway.ts';
