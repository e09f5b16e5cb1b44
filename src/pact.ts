/**
 * `fakehands/pact`: verify the Pact contracts that ship with fakehands (or your own) against any
 * implementation of the service at a base URL, from code. `fakehands verify` is the same, as a command.
 * @example
 * import { verifyProvider } from 'fakehands/pact'
 * const result = await verifyProvider({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'fakehands-dev-key' })
 * if (!result.ok) console.error(result.problems)
 */
export { parseVerifyArgs, runVerify, VERIFY_HELP, type VerifyConfig } from './pact/command.js';
export {
  verifyProvider,
  AGENT_PROVIDER_NAME,
  CONSUMER_NAME,
  CONTRACTS_DIR,
  PROVIDER_NAME,
  type VerifyOptions,
  type VerifyResult,
} from './pact/verify.js';
