import { DownloadIcon, SearchIcon, XIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { isCalendarDay, isNarrowed, type ListFilterName } from '../api/list-state';
import type { ListUrlState } from '../hooks/use-list-url-state';
import { csvFileName, downloadCsv, toCsv, type CsvColumn } from '@/lib/csv';

const SEARCH_DELAY_MS = 300;

/** A filter the list offers as a dropdown, with its choices. */
export interface ChoiceFilter {
  name: Extract<ListFilterName, 'status' | 'type' | 'method'>;
  label: string;
  choices: readonly string[];
}

/** How a list is exported: its file name's start, its columns, and a read of every matching row. */
export interface CsvExport<Item> {
  list: string;
  columns: readonly CsvColumn<Item>[];
  readAll: () => Promise<Item[]>;
}

/**
 * Above an admin list: the search by name or e-mail, the list's filters (dropdowns, a date range, the
 * person chosen from a row), a way to clear them, and the CSV export of everything they match.
 */
export function ListToolbar<Item>({
  list,
  choices = [],
  dateRange = true,
  personName,
  csv,
}: {
  list: ListUrlState;
  choices?: readonly ChoiceFilter[];
  dateRange?: boolean;
  /** Whose rows the person filter shows, once a row names them. */
  personName?: string;
  csv?: CsvExport<Item>;
}) {
  const { state, setFilter, clear } = list;
  // The search is sent when typing pauses, to the list as it is then (a filter may have changed meanwhile).
  const latestList = useRef(list);
  useEffect(() => {
    latestList.current = list;
  });
  // What is typed shows until the address changes otherwise (back, forward, Clear filters); it reaches the
  // address once typing pauses.
  const [draft, setDraft] = useState({ text: state.search, over: state.search });
  const text = draft.over === state.search ? draft.text : state.search;
  const searchTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(searchTimer.current), []);
  const [exporting, setExporting] = useState(false);

  // What was typed and not yet searched for.
  const pendingSearch = useRef<string>(undefined);
  const applySearch = () => {
    clearTimeout(searchTimer.current);
    const typed = pendingSearch.current;
    pendingSearch.current = undefined;
    if (typed === undefined || typed.trim() === latestList.current.state.search) return;
    // The draft now stands for the address it made; a later change there (Clear filters) replaces it.
    setDraft({ text: typed, over: typed.trim() });
    latestList.current.setSearch(typed);
  };
  const type = (typed: string) => {
    setDraft({ text: typed, over: state.search });
    pendingSearch.current = typed;
    clearTimeout(searchTimer.current);
    searchTimer.current = setTimeout(applySearch, SEARCH_DELAY_MS);
  };

  const exportCsv = async () => {
    if (!csv) return;
    setExporting(true);
    try {
      downloadCsv(csvFileName(csv.list), toCsv(csv.columns, await csv.readAll()));
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
    } finally {
      setExporting(false);
    }
  };

  const setDay = (name: 'from' | 'to', value: string) =>
    setFilter(name, isCalendarDay(value) ? value : undefined);

  return (
    <div className="flex flex-wrap items-end gap-3" role="search" aria-label="Search and filters">
      <FormField label="Search by name or e-mail" className="w-full sm:w-64">
        {(control) => (
          <div className="relative">
            <SearchIcon
              className="text-muted-foreground absolute top-1/2 left-3 size-4 -translate-y-1/2"
              aria-hidden
            />
            <Input
              {...control}
              type="search"
              placeholder="Name or e-mail"
              className="pl-9"
              value={text}
              onChange={(event) => type(event.target.value)}
              // A click elsewhere (a row's button, the pager) takes the focus first: the search typed so far
              // applies then, before the click acts, rather than change the list under it a moment later.
              onBlur={applySearch}
            />
          </div>
        )}
      </FormField>
      {choices.map((choice) => (
        <FormField key={choice.name} label={choice.label} className="w-full min-[480px]:w-40">
          {(control) => (
            <NativeSelect
              {...control}
              value={state.filters[choice.name] ?? ''}
              onChange={(event) => setFilter(choice.name, event.target.value || undefined)}
            >
              <option value="">All</option>
              {choice.choices.map((value) => (
                <option key={value} value={value}>
                  {value}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
      ))}
      {dateRange && (
        <>
          <FormField label="From" className="w-full min-[480px]:w-40">
            {(control) => (
              <Input
                {...control}
                type="date"
                value={state.filters.from ?? ''}
                onChange={(event) => setDay('from', event.target.value)}
              />
            )}
          </FormField>
          <FormField label="To" className="w-full min-[480px]:w-40">
            {(control) => (
              <Input
                {...control}
                type="date"
                value={state.filters.to ?? ''}
                min={state.filters.from}
                onChange={(event) => setDay('to', event.target.value)}
              />
            )}
          </FormField>
        </>
      )}
      {state.filters.user && (
        <Button variant="secondary" onClick={() => setFilter('user', undefined)}>
          <span className="max-w-48 truncate">Person: {personName || 'one person'}</span>
          <XIcon aria-hidden />
          <span className="sr-only">(show everyone)</span>
        </Button>
      )}
      {isNarrowed(state) && (
        <Button variant="ghost" onClick={clear}>
          Clear filters
        </Button>
      )}
      {csv && (
        <Button
          variant="outline"
          className="sm:ml-auto"
          disabled={exporting}
          onClick={() => void exportCsv()}
        >
          <DownloadIcon aria-hidden />
          {exporting ? 'Exporting…' : 'Export CSV'}
        </Button>
      )}
    </div>
  );
}
