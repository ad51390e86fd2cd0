export * from '../../testing/embedded-template.ts';
