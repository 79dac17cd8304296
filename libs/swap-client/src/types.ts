import type { components } from './schema';

/** The public API's shapes, by the names its document gives them (schema.ts, generated). */
export type Schemas = components['schemas'];
export type Token = Schemas['TokenDto'];
export type QuoteRequest = Schemas['QuoteRequestDto'];
export type QuoteResponse = Schemas['QuoteResponseDto'];
export type IntentRequest = Schemas['IntentRequestDto'];
export type BuildResponse = Schemas['BuildResponseDto'];
export type Intent = Schemas['IntentDto'];
export type EvmTx = Schemas['EvmTxDto'];
export type NetworkTx = Schemas['NetworkTxDto'];

export type SubmitTxRequest = Schemas['SubmitTxRequestDto'];
export type SubmitTxResponse = Schemas['SubmitTxResponseDto'];
export type SubmissionStatus = Schemas['SubmissionStatusResponseDto']['data'];
export type PartnerFee = Schemas['PartnerFeeDto'];
export type ErrorBody = Schemas['ErrorBodyDto'];
export type SolverErrorBody = Schemas['SolverErrorBodyDto'];
export type ExplorerIntent = Schemas['ExplorerIntentDto'];
export type VolumePage = Schemas['VolumePageDto'];
