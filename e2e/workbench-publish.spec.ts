/**
 * Publishing defects of issue #12 in the signing playground, against the e2e local node:
 * Publish closes once the node stored the bytes ("Stored by the node", not an IDENT-011
 * refusal on a second click); a newly signed update never shows the previous one's
 * answer; the claimed handle is not drafted again; a handle held by another inbox is
 * found by the node's lookup before any signer is asked. Each failed before its fix.
 */
import { inboxIdOf } from '../src/signing/draft'
import { expect, test } from './fixtures'
import { newInboxOnNode, signAndAppend } from './support/playground'

test('publish once, then a claim: Publish closes after success, the next update starts clean, a taken handle blocks Sign', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const { wallet, pg } = await newInboxOnNode(page)
  await pg.getByRole('textbox', { name: 'Nonce' }).fill('12')
  await expect(pg.getByLabel('Derived inbox id')).toHaveText(inboxIdOf(wallet.address, 12n))
  await signAndAppend(page, 1)

  await pg.getByRole('button', { name: 'Publish to node' }).click()
  const answer = pg.getByRole('status', { name: 'Node answer' })
  await expect(answer).toContainText(/Stored by the node with sequence id \d+\./, { timeout: 30_000 })
  const stored = pg.getByRole('button', { name: /Stored by the node \(sequence id \d+\)/ })
  await expect(stored).toBeDisabled()

  // A handle another inbox holds on the node (the demo's alice): Sign stays closed, no signer is asked.
  await pg.getByRole('radiogroup', { name: 'Action' }).getByRole('radio', { name: 'Claim a handle' }).check()
  await pg.getByRole('textbox', { name: 'Handle to claim' }).fill('alice')
  const sign = pg.getByRole('button', { name: 'Sign', exact: true })
  await expect(pg.getByText(/Sign is disabled: the node says "alice" is held by inbox .*handle_taken/)).toBeVisible()
  await expect(sign).toBeDisabled()

  // A free handle: signed and appended; the new signed update shows no earlier answer, and the form is clear.
  await pg.getByRole('textbox', { name: 'Handle to claim' }).fill('wb-free-handle')
  await signAndAppend(page, 2)
  await expect(pg.getByRole('status', { name: 'Node answer' })).toHaveCount(0)
  await expect(pg.getByRole('button', { name: 'Publish to node' })).toBeEnabled()
  await expect(pg.getByRole('textbox', { name: 'Handle to claim' })).toHaveValue('')
})
