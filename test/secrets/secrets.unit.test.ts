import { randomBytes } from 'node:crypto';
import {
  DecryptCommand,
  type DecryptCommandInput,
  GenerateDataKeyCommand,
  type GenerateDataKeyCommandInput,
  KMSClient,
} from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { SecretDecryptError, type SecretsPort, secrets } from '../../shared/ports/secrets';
import { awsSecrets } from '../../shared/ports/secrets/aws';
import { contextBytes, open, seal } from '../../shared/ports/secrets/envelope';
import { localMasterKey, localSecrets } from '../../shared/ports/secrets/local';

const ctx = { purpose: 'env', orgId: 'org_a', projectId: 'prj_a' };
const KEY_ARN = 'arn:aws:kms:eu-central-1:111122223333:key/test';

/**
 * A stand-in for KMS behind aws-sdk-client-mock: GenerateDataKey returns a random data key and
 * its "wrapped" form sealed under a test master key with the EncryptionContext as AAD; Decrypt
 * refuses a blob under another context with InvalidCiphertextException, as KMS does.
 */
function fakeKms() {
  const master = randomBytes(32);
  const kms = mockClient(KMSClient);
  const aad = (c: Record<string, string> | undefined) => contextBytes(c ?? {});
  kms.on(GenerateDataKeyCommand).callsFake(async (input: GenerateDataKeyCommandInput) => {
    const key = randomBytes(32);
    return {
      KeyId: input.KeyId,
      Plaintext: new Uint8Array(key),
      CiphertextBlob: seal(master, key, aad(input.EncryptionContext)),
    };
  });
  kms.on(DecryptCommand).callsFake(async (input: DecryptCommandInput) => {
    try {
      return {
        KeyId: input.KeyId,
        Plaintext: new Uint8Array(
          open(master, Buffer.from(input.CiphertextBlob as Uint8Array), aad(input.EncryptionContext)),
        ),
      };
    } catch {
      throw Object.assign(new Error('invalid ciphertext'), {
        name: 'InvalidCiphertextException',
        $fault: 'client',
        $metadata: {},
      });
    }
  });
  return kms;
}

const kms = fakeKms();
afterAll(() => kms.restore());

const adapters: [string, () => SecretsPort][] = [
  ['local', () => localSecrets(randomBytes(32))],
  ['aws', () => awsSecrets(new KMSClient({ region: 'eu-central-1' }), KEY_ARN)],
];

describe.each(adapters)('secrets port contract: %s adapter', (_name, make) => {
  let port: SecretsPort;
  beforeAll(() => {
    port = make();
  });

  it('round-trips values: empty, unicode, 65,536 characters', async () => {
    const values = ['', 'plain', 'ünïcødé ✓ 😀', '€'.repeat(65_536)];
    const sealed = await port.encrypt(ctx, values);
    expect(sealed).toHaveLength(4);
    for (const s of sealed) for (const v of values.slice(1)) expect(s).not.toContain(v);
    expect(await port.decrypt(ctx, sealed)).toEqual(values);
  });

  it('answers an empty batch without work', async () => {
    expect(await port.encrypt(ctx, [])).toEqual([]);
    expect(await port.decrypt(ctx, [])).toEqual([]);
  });

  it('encrypts the same value differently each time', async () => {
    const [a] = await port.encrypt(ctx, ['same']);
    const [b] = await port.encrypt(ctx, ['same']);
    expect(a).not.toEqual(b);
  });

  it('does not depend on the order of the context keys', async () => {
    const sealed = await port.encrypt(ctx, ['v']);
    const reordered = { projectId: 'prj_a', orgId: 'org_a', purpose: 'env' };
    expect(await port.decrypt(reordered, sealed)).toEqual(['v']);
  });

  it.each([
    ['another project', { ...ctx, projectId: 'prj_b' }],
    ['another organization', { ...ctx, orgId: 'org_b' }],
    ['another purpose', { ...ctx, purpose: 'connector' }],
    ['a missing part', { orgId: 'org_a', projectId: 'prj_a' }],
  ])('refuses a value decrypted under %s', async (_what, other) => {
    const sealed = await port.encrypt(ctx, ['secret']);
    await expect(port.decrypt(other, sealed)).rejects.toBeInstanceOf(SecretDecryptError);
  });

  it('refuses an altered or malformed ciphertext', async () => {
    const [sealed] = (await port.encrypt(ctx, ['secret'])) as [string];
    const parts = sealed.split('.');
    const body = Buffer.from(parts[2] as string, 'base64url');
    body.writeUInt8((body.at(-1) as number) ^ 1, body.length - 1);
    const altered = [parts[0], parts[1], body.toString('base64url')].join('.');
    await expect(port.decrypt(ctx, [altered])).rejects.toBeInstanceOf(SecretDecryptError);
    await expect(port.decrypt(ctx, ['not an envelope'])).rejects.toBeInstanceOf(SecretDecryptError);
    await expect(port.decrypt(ctx, [`v2.${parts[1]}.${parts[2]}`])).rejects.toBeInstanceOf(SecretDecryptError);
  });

  it('a value moved into another envelope batch does not decrypt (data keys differ)', async () => {
    const [a] = (await port.encrypt(ctx, ['a'])) as [string];
    const [b] = (await port.encrypt(ctx, ['b'])) as [string];
    const mixed = [a.split('.')[0], b.split('.')[1], a.split('.')[2]].join('.');
    await expect(port.decrypt(ctx, [mixed])).rejects.toBeInstanceOf(SecretDecryptError);
  });
});

describe('aws adapter: the KMS calls it makes', () => {
  beforeEach(() => kms.resetHistory());

  it('asks KMS for one AES-256 data key per batch, bound to the context', async () => {
    const port = awsSecrets(new KMSClient({ region: 'eu-central-1' }), KEY_ARN);
    const sealed = await port.encrypt(ctx, ['a', 'b', 'c']);
    const calls = kms.commandCalls(GenerateDataKeyCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({ KeyId: KEY_ARN, KeySpec: 'AES_256', EncryptionContext: ctx });
    // One wrapped key shared by the batch.
    expect(new Set(sealed.map((s) => s.split('.')[1])).size).toBe(1);
  });

  it('unwraps each distinct data key once, with the same context', async () => {
    const port = awsSecrets(new KMSClient({ region: 'eu-central-1' }), KEY_ARN);
    const first = await port.encrypt(ctx, ['a', 'b']);
    const second = await port.encrypt(ctx, ['c']);
    kms.resetHistory();
    expect(await port.decrypt(ctx, [...first, ...second])).toEqual(['a', 'b', 'c']);
    const calls = kms.commandCalls(DecryptCommand);
    expect(calls).toHaveLength(2);
    for (const c of calls) expect(c.args[0].input).toMatchObject({ KeyId: KEY_ARN, EncryptionContext: ctx });
  });

  it('lets other KMS failures through as backend errors', async () => {
    const throttled = mockClient(KMSClient);
    throttled
      .on(GenerateDataKeyCommand)
      .rejects(Object.assign(new Error('slow down'), { name: 'ThrottlingException', $metadata: {} }));
    try {
      const port = awsSecrets(new KMSClient({ region: 'eu-central-1' }), KEY_ARN);
      await expect(port.encrypt(ctx, ['a'])).rejects.toMatchObject({ name: 'ThrottlingException' });
    } finally {
      throttled.restore();
    }
  });

  it('needs SECRETS_KEY_ID', async () => {
    const port = awsSecrets(new KMSClient({ region: 'eu-central-1' }), undefined);
    await expect(port.encrypt(ctx, ['a'])).rejects.toThrow('SECRETS_KEY_ID is not set');
  });
});

describe('local adapter', () => {
  it('reads LOCAL_SECRETS_KEY: base64 of exactly 32 bytes', () => {
    expect(localMasterKey(randomBytes(32).toString('base64'))).toHaveLength(32);
    expect(() => localMasterKey('')).toThrow('LOCAL_SECRETS_KEY');
    expect(() => localMasterKey(randomBytes(16).toString('base64'))).toThrow('LOCAL_SECRETS_KEY');
  });

  it('does not decrypt under another master key', async () => {
    const [sealed] = (await localSecrets(randomBytes(32)).encrypt(ctx, ['v'])) as [string];
    await expect(localSecrets(randomBytes(32)).decrypt(ctx, [sealed])).rejects.toBeInstanceOf(SecretDecryptError);
  });

  it('is the adapter picked when PLATFORM_TARGET is local', async () => {
    const port = secrets();
    const sealed = await port.encrypt(ctx, ['picked']);
    expect(await localSecrets(localMasterKey()).decrypt(ctx, sealed)).toEqual(['picked']);
  });
});
