// moved to the test kit; kept until the tests import it from there
export * from '../../testing/database.ts';
