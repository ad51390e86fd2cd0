// jest `setupFilesAfterEnv`: every test file's REST answers are checked against the served OpenAPI document
import { installResponseCheck } from './response-check.ts';

installResponseCheck();
