import { Box, Button, Card, Flex, Heading, Stack, Table, Text } from '@chakra-ui/react';
import { useId, useState, type ReactNode } from 'react';

export interface DataTableProps {
  caption: string;
  columns: string[];
  /** Cells as shown; every column after the first is a figure, right-aligned. */
  rows: string[][];
}

/** A chart's figures as a plain table: what a screen reader reads, and what a seller can copy. */
export function DataTable({ caption, columns, rows }: DataTableProps) {
  return (
    <Table.ScrollArea borderWidth="1px" borderRadius="md">
      <Table.Root size="sm">
        <Table.Caption srOnly>{caption}</Table.Caption>
        <Table.Header>
          <Table.Row>
            {columns.map((column, index) => (
              <Table.ColumnHeader key={column} textAlign={index === 0 ? 'start' : 'end'} whiteSpace="nowrap">
                {column}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row, rowIndex) => (
            <Table.Row key={rowIndex}>
              {row.map((cell, index) => (
                <Table.Cell
                  key={index}
                  textAlign={index === 0 ? 'start' : 'end'}
                  fontVariantNumeric="tabular-nums"
                  whiteSpace={index === 0 ? 'normal' : 'nowrap'}
                >
                  {cell}
                </Table.Cell>
              ))}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

/**
 * A series' colour dot for the chart legends and tooltips: their default (Chakra's ColorSwatch)
 * has no recipe in our trimmed theme, and registering one would grow every visitor's first load.
 */
export function Swatch({ color }: { color: string }) {
  return <Box as="span" display="inline-block" boxSize="2.5" borderRadius="full" bg={color} flexShrink={0} />;
}

interface ChartCardProps {
  testId: string;
  title: string;
  description: string;
  /** The chart in one sentence: the text alternative of its picture. */
  summary: string;
  table: DataTableProps;
  /** Shown instead of the chart when there is nothing to draw. */
  empty?: string | null;
  children: ReactNode;
}

/** One chart: its title, the picture (with a text alternative) and its data table behind a toggle. */
export function ChartCard({ testId, title, description, summary, table, empty, children }: ChartCardProps) {
  const [showTable, setShowTable] = useState(false);
  const id = useId();
  return (
    <Card.Root
      as="section"
      aria-labelledby={`${id}-title`}
      borderRadius="xl"
      boxShadow="xs"
      minW="0"
      data-testid={testId}
    >
      <Card.Header>
        <Flex justify="space-between" align="flex-start" gap="3" wrap="wrap">
          <Stack gap="1" minW="0">
            <Heading as="h2" size="md" id={`${id}-title`}>
              {title}
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              {description}
            </Text>
          </Stack>
          {!empty && (
            <Button
              size="xs"
              variant="outline"
              aria-expanded={showTable}
              aria-controls={`${id}-table`}
              onClick={() => setShowTable((shown) => !shown)}
            >
              {showTable ? 'Hide data table' : 'Show data table'}
            </Button>
          )}
        </Flex>
      </Card.Header>
      <Card.Body gap="4" pt="4">
        {empty ? (
          <Text fontSize="sm" color="fg.muted" data-testid="chart-empty">
            {empty}
          </Text>
        ) : (
          <>
            <Box role="img" aria-label={summary} minW="0">
              {children}
            </Box>
            <Box id={`${id}-table`} hidden={!showTable} data-testid="chart-data-table">
              <DataTable {...table} />
            </Box>
          </>
        )}
      </Card.Body>
    </Card.Root>
  );
}
