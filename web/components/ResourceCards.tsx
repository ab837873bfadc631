/** The card view of a ResourceTable: the page's cards over the current page of items, with the table's paging. */
import type { JSX, ReactNode } from 'react';
import Pagination from '@arco-design/web-react/es/Pagination';
import type { PaginationProps } from '@arco-design/web-react/es/Pagination/pagination';
import Spin from '@arco-design/web-react/es/Spin';
import type { ListController } from '../lib/use-list.ts';

export function ResourceCards<T, F extends object>(props: {
  list: ListController<T, F>;
  testId: string;
  pagination: PaginationProps;
  empty: ReactNode;
  renderCards: (items: T[]) => ReactNode;
}): JSX.Element {
  const { list } = props;
  return (
    <Spin loading={list.loading} block>
      <div data-testid={`${props.testId}-cards`}>{list.items.length ? props.renderCards(list.items) : props.empty}</div>
      {list.total > 0 ? (
        <Pagination className="ec-resource__pagination" {...props.pagination} onChange={(page, size) => list.setPage(page, size)} />
      ) : null}
    </Spin>
  );
}
