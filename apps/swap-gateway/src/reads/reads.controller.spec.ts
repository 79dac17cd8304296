import { AppError, Subjects, type PartnerFee, type PartnerFeeQueryDto } from '@swap/contracts';
import { FakeServices, REGISTRY_SNAPSHOT } from '../testing/gateway-doubles';
import { HubClock } from './hub-clock';
import { ReadsController } from './reads.controller';
import { SwapGatewayConfig } from '../swap-gateway.config';
import { testCatalogSigning } from '@swap/testing';

/*
 * The public reads answered from swap-gateway's memory: the partner fee (the query's, else
 * the deployment's from quote-builder's catalog snapshot) and the deadline. quote-builder
 * is a subscriber on an in-process bus.
 */

const FEE_ADDRESS = '0x00000000000000000000000000000000000Fee01';
const DEPLOYMENT_FEE: PartnerFee = { address: '0x000000000000000000000000000000000000dEaD', percentage: 50 };

function setup(partnerFee: PartnerFee | null) {
  const services = new FakeServices()
    .answer(Subjects.catalogSnapshot, () => testCatalogSigning.sign({ ...REGISTRY_SNAPSHOT, partnerFee }))
    .answer(Subjects.deadline, ({ offsetSeconds }) => ({ deadline: (1_763_812_800n + BigInt(offsetSeconds)).toString() }));
  const controller = new ReadsController(
    testCatalogSigning.mirror(services.messaging),
    new HubClock(services.messaging),
    Object.assign(new SwapGatewayConfig(), { SOLVER_FEE_BPS: 25 }),
  );
  return { services, controller };
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error.toBody();
}

describe('ReadsController.partnerFee', () => {
  let s: ReturnType<typeof setup>;
  beforeEach(() => (s = setup(DEPLOYMENT_FEE)));
  afterEach(() => s.services.close());

  it('takes the query’s fee in basis points (the text 100 is 1%) over the deployment’s', async () => {
    await expect(s.controller.partnerFee({ amount: '1000000', feeAddress: FEE_ADDRESS, feePercentage: '100' })).resolves.toEqual({
      amount: '1000000',
      fee: '10000',
      inputAmount: '990000',
      partnerFee: { address: FEE_ADDRESS, percentage: 100 },
    });
  });

  it('lets a fixed feeAmount win over feePercentage', async () => {
    await expect(
      s.controller.partnerFee({ amount: '1000000', feeAddress: FEE_ADDRESS, feeAmount: '1234', feePercentage: '100' }),
    ).resolves.toEqual({
      amount: '1000000',
      fee: '1234',
      inputAmount: '998766',
      partnerFee: { address: FEE_ADDRESS, amount: '1234', percentage: 100 },
    });
  });

  it('applies the deployment’s fee from the catalog snapshot when the query names none', async () => {
    await expect(s.controller.partnerFee({ amount: '1000000' })).resolves.toEqual({
      amount: '1000000',
      fee: '5000',
      inputAmount: '995000',
      partnerFee: DEPLOYMENT_FEE,
    });
    // The snapshot is read once and kept.
    await s.controller.partnerFee({ amount: '3' });
    expect(s.services.payloadsOn(Subjects.catalogSnapshot)).toHaveLength(1);
  });

  it('answers no fee when neither the query nor the deployment names one', async () => {
    const bare = setup(null);
    await expect(bare.controller.partnerFee({ amount: '1000000' })).resolves.toEqual({
      amount: '1000000',
      fee: '0',
      inputAmount: '1000000',
      partnerFee: null,
    });
    await bare.services.close();
  });

  it('requires feeAddress with feeAmount or feePercentage, before reading the catalog', async () => {
    const expected = {
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'feeAddress is required with feeAmount or feePercentage',
      details: [{ field: 'feeAddress', rule: 'requiredWithFee', message: 'feeAddress is required with feeAmount or feePercentage' }],
    };
    expect(await refusal(s.controller.partnerFee({ amount: '1000000', feeAmount: '10' }))).toEqual(expected);
    expect(await refusal(s.controller.partnerFee({ amount: '1000000', feePercentage: '10' }))).toEqual(expected);
    expect(s.services.received).toEqual([]);
  });

  it('refuses a fee that leaves nothing to swap, naming the query field', async () => {
    expect(await refusal(s.controller.partnerFee({ amount: '1000', feeAddress: FEE_ADDRESS, feeAmount: '1000' }))).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'the partner fee must be less than the input amount (1000 ≥ 1000)',
      details: [{ field: 'feeAmount', rule: 'belowInput', message: 'the partner fee must be less than the input amount (1000 ≥ 1000)' }],
    });
  });

  it('asks for a fee amount or percentage when only feeAddress is given', async () => {
    expect(await refusal(s.controller.partnerFee({ amount: '1000', feeAddress: FEE_ADDRESS } as PartnerFeeQueryDto))).toMatchObject({
      statusCode: 400,
      details: [{ field: 'feeAddress', rule: 'amountOrPercentage', message: 'feeAddress must set amount or percentage' }],
    });
  });
});

describe('ReadsController.deadline', () => {
  it('turns the query’s offset text into seconds on the hub clock', async () => {
    const { services, controller } = setup(null);
    await expect(controller.deadline({ offsetSeconds: '300' })).resolves.toEqual({ deadline: '1763813100' });
    await services.close();
  });
});

describe('ReadsController.solverFee', () => {
  it('takes the configured basis points of the amount, rounded down, as the public client does', async () => {
    const { services, controller } = setup(null);
    expect(controller.solverFee({ amount: '1000000' })).toEqual({ amount: '1000000', fee: '2500', feeBps: 25 });
    expect(controller.solverFee({ amount: '399' })).toEqual({ amount: '399', fee: '0', feeBps: 25 });
    expect(services.received).toEqual([]);
    await services.close();
  });
});
