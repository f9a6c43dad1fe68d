/**
 * The parts of ECharts the dashboards use, and nothing else: line and bar charts, their grid,
 * tooltip and legend, the ARIA description (a chart's container is read out as words), drawn
 * as SVG. Importing `echarts` whole would ship every chart type.
 */
import { use } from 'echarts/core'
import { BarChart, LineChart } from 'echarts/charts'
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components'
import { SVGRenderer } from 'echarts/renderers'
import { nextTick, onMounted, ref, watch } from 'vue'
import { usePage } from '@inertiajs/vue3'

use([
  LineChart,
  BarChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  AriaComponent,
  SVGRenderer,
])

/** The chart colours: the label's primary colour (as the theme set it) and neutral greys. */
function chartColours() {
  const style = getComputedStyle(document.documentElement)
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback
  return {
    primary: read('--p-primary-color', '#0f766e'),
    previous: read('--p-surface-400', '#94a3b8'),
    text: read('--p-text-muted-color', '#475569'),
    warn: read('--p-amber-500', '#f59e0b'),
    danger: read('--p-red-600', '#dc2626'),
    grid: read('--p-surface-200', '#e2e8f0'),
  }
}

/**
 * The chart colours, read again once the page is on screen and whenever the brand changes:
 * the layout puts the label's colour on the theme as the page mounts, not before.
 */
export function useChartColours() {
  const colours = ref(chartColours())
  const page = usePage()
  const read = () => nextTick(() => (colours.value = chartColours()))
  onMounted(read)
  watch(() => page.props.brand?.primary_color, read)
  return colours
}
