// @vitest-environment jsdom
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LIMITS_NOTICE_DELAY_MS, LimitsNotice } from './limits-notice';
import { sessionFlagIsSet, setSessionFlag } from '@/lib/session-flags';

const limits = { minAmount: 10, maxAmount: 10_000 };

/** The notice on a page with a form field; returns the field. */
function renderBesideAField(): HTMLElement {
  render(
    <>
      <label>
        Amount
        <input />
      </label>
      <LimitsNotice limits={limits} sessionFlag="hasSeenLimits" />
    </>,
  );
  return screen.getByLabelText('Amount');
}

describe('Important Transaction Limits notice', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });

  it('appears 1.5 s after the first visit with the minimum and maximum', async () => {
    render(<LimitsNotice limits={limits} sessionFlag="hasSeenLimits" />);
    act(() => vi.advanceTimersByTime(LIMITS_NOTICE_DELAY_MS - 100));
    expect(screen.queryByText('Important Transaction Limits')).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(100));
    expect(await screen.findByText('Important Transaction Limits')).toBeInTheDocument();
    expect(screen.getByText('$10.00')).toBeInTheDocument();
    expect(screen.getByText('$10,000.00')).toBeInTheDocument();
  });

  it('counts the 1.5 s from the page opening, not from the limits arriving', () => {
    const { rerender } = render(<LimitsNotice limits={undefined} sessionFlag="hasSeenLimits" />);
    act(() => vi.advanceTimersByTime(1_000));
    rerender(<LimitsNotice limits={limits} sessionFlag="hasSeenLimits" />);
    act(() => vi.advanceTimersByTime(LIMITS_NOTICE_DELAY_MS - 1_000 - 100));
    expect(screen.queryByText('Important Transaction Limits')).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(100));
    expect(screen.getByText('Important Transaction Limits')).toBeInTheDocument();
  });

  it('shows at once when the limits arrive after the 1.5 s', () => {
    const { rerender } = render(<LimitsNotice limits={undefined} sessionFlag="hasSeenLimits" />);
    act(() => vi.advanceTimersByTime(LIMITS_NOTICE_DELAY_MS + 500));
    rerender(<LimitsNotice limits={limits} sessionFlag="hasSeenLimits" />);
    act(() => vi.advanceTimersByTime(0));
    expect(screen.getByText('Important Transaction Limits')).toBeInTheDocument();
  });

  it('sets the session flag on I Understand and does not come back in this session', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { unmount } = render(<LimitsNotice limits={limits} sessionFlag="hasSeenLimits" />);
    act(() => vi.advanceTimersByTime(LIMITS_NOTICE_DELAY_MS));
    await user.click(await screen.findByRole('button', { name: 'I Understand' }));
    expect(sessionFlagIsSet('hasSeenLimits')).toBe(true);
    unmount();

    render(<LimitsNotice limits={limits} sessionFlag="hasSeenLimits" />);
    act(() => vi.advanceTimersByTime(LIMITS_NOTICE_DELAY_MS * 2));
    expect(screen.queryByText('Important Transaction Limits')).not.toBeInTheDocument();
  });

  it('keeps separate flags per page', async () => {
    setSessionFlag('hasSeenLimits');
    render(<LimitsNotice limits={limits} sessionFlag="hasSeenBuyLimits" />);
    act(() => vi.advanceTimersByTime(LIMITS_NOTICE_DELAY_MS));
    expect(await screen.findByText('Important Transaction Limits')).toBeInTheDocument();
  });

  it.each([
    ['limits did not load', undefined],
    ['the maximum is 0', { minAmount: 0, maxAmount: 0 }],
  ])('stays hidden when %s', (_, value) => {
    render(<LimitsNotice limits={value} sessionFlag="hasSeenLimits" />);
    act(() => vi.advanceTimersByTime(LIMITS_NOTICE_DELAY_MS * 2));
    expect(screen.queryByText('Important Transaction Limits')).not.toBeInTheDocument();
  });

  it('moves the focus to I Understand when nobody is typing', async () => {
    render(<LimitsNotice limits={limits} sessionFlag="hasSeenLimits" />);
    act(() => vi.advanceTimersByTime(LIMITS_NOTICE_DELAY_MS));
    const understood = await screen.findByRole('button', { name: 'I Understand' });
    await waitFor(() => expect(understood).toHaveFocus());
  });

  it('does not steal the keystrokes of a person already typing: "1234567" stays "1234567"', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const field = renderBesideAField();
    await user.click(field);
    await user.keyboard('12345');
    act(() => vi.advanceTimersByTime(LIMITS_NOTICE_DELAY_MS));
    expect(await screen.findByText('Important Transaction Limits')).toBeInTheDocument();
    await user.keyboard('67');
    expect(field).toHaveValue('1234567');
    expect(field).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'I Understand' }));
    expect(sessionFlagIsSet('hasSeenLimits')).toBe(true);
  });

  it('leaves the keys with a person who took a field while the notice was coming up', async () => {
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const field = renderBesideAField();
    act(() => {
      vi.advanceTimersByTime(LIMITS_NOTICE_DELAY_MS);
      field.focus();
    });
    expect(screen.getByText('Important Transaction Limits')).toBeInTheDocument();
    // The notice would take the focus once it has been drawn.
    await act(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    await user.keyboard('67');
    expect(field).toHaveValue('67');
    expect(field).toHaveFocus();
  });
});
