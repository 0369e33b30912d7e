/**
 * Issue #12, linked views (src/app/model/linked.ts): in the Signature text tab the text sits
 * beside the signature cards, in the Raw tab the bytes beside the text; pointing at a part
 * in one marks it in the other, and choosing an action's lines selects that action
 * everywhere, by mouse and by keyboard. Screenshots are artifacts.
 */
import type { Page } from '@playwright/test'
import { expect, expectNoA11yViolations, test } from './fixtures'
import { pressAndSee, shot, summary, waitForLog } from './helpers'

const tab = (page: Page, name: string) =>
  page.getByRole('tablist', { name: 'Views of the selected step' }).getByRole('tab', { name, exact: true })
const text = (page: Page) => page.getByRole('tabpanel').locator('.sigtext-body')
const line = (page: Page, part: string) => text(page).locator(`.line[data-part="${part}"]`)

test('the signature text, its signature cards and the raw bytes mark the same part', async ({ page }, info) => {
  await page.setViewportSize({ width: 1440, height: 900 })
  await page.goto('/')
  await waitForLog(page)
  // The demo's first update creates the inbox and adds an installation: two actions.
  await expect(summary(page)).toContainText('sequence id 1 · action 0 of 2')
  await tab(page, 'Signature text').click()
  const cards = page.getByRole('tabpanel').locator('.sigs .sig')
  await expect(cards.first()).toBeVisible()

  // Pointing at action 1's lines marks both of its lines and its signature cards only.
  await line(page, 'action:1').first().hover()
  await expect(line(page, 'action:1')).toHaveClass([/linked/, /linked/])
  await expect(line(page, 'action:0').first()).not.toHaveClass(/linked/)
  const linkedCards = page.getByRole('tabpanel').locator('.sigs .sig.linked')
  await expect(linkedCards.first()).toBeVisible()
  for (const label of await linkedCards.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))))
    expect(label).toContain('of action 1')
  await shot(page, info, 'linked-text-1440')

  // And the other way round: a card marks its action's lines.
  await page.getByRole('tabpanel').locator('.sigs .sig[data-part="action:0"]').first().hover()
  await expect(line(page, 'action:0')).toHaveClass([/linked/, /linked/])
  await expect(line(page, 'action:1').first()).not.toHaveClass(/linked/)

  // Clicking an action's lines selects that action in the whole inspector.
  await line(page, 'action:1').nth(1).click()
  await expect(summary(page)).toContainText('action 1 of 2')
  await expect(line(page, 'action:1').first()).toHaveClass(/hl/)
  await expectNoA11yViolations(page)

  // The Raw tab: the selected action's field is marked, with its byte range.
  await tab(page, 'Raw').click()
  const raw = page.getByRole('tabpanel').locator('.wire-tree')
  await expect(raw.locator('li[data-part="action:1"]')).toHaveAttribute('aria-current', 'true')
  await expect(page.locator('.part-range')).toContainText(/Selected: action 1, bytes \d+–\d+/)
  // A field marks the text's line it is written in.
  await raw.locator('li[data-part="inbox_id"] .wire-line').hover()
  await expect(line(page, 'inbox_id')).toHaveClass(/linked/)
  await expect(line(page, 'inbox_id')).toContainText('Inbox ID: ')
  await expect(page.locator('.part-range')).toContainText(/Pointed at: inbox_id, bytes \d+–\d+/)
  await shot(page, info, 'linked-raw-1440')
  await expectNoA11yViolations(page)
})

test('by keyboard: an action is chosen from its first line of the text with Enter', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 })
  await page.goto('/')
  await waitForLog(page)
  await tab(page, 'Signature text').click()
  const first = line(page, 'action:1').first()
  await first.focus()
  await expect(first).toHaveClass(/linked/) // focus marks it as the pointer does
  await pressAndSee(page, 'Enter', 'action 1 of 2')
  await line(page, 'action:0').first().focus()
  await pressAndSee(page, ' ', 'action 0 of 2')
})

test('at 390 px the pair stacks: the text first, then its cards', async ({ page }, info) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/')
  await waitForLog(page)
  await tab(page, 'Signature text').click()
  const t = await text(page).boundingBox()
  const c = await page.getByRole('tabpanel').locator('.sigs').boundingBox()
  expect(t && c && c.y > t.y + t.height - 1).toBe(true)
  await shot(page, info, 'linked-text-390')
})
